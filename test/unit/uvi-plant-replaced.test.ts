// A plant heat meter (or warm-water heat meter) replaced during a month by one at a new point: the two
// measured one after the other, not side by side, so the month is the old meter's heat up to its removal
// plus the new one's from its installation, as a replacement at one point is summed. Meters whose
// installation windows share days stay "several"; days between removal and installation are a gap.
import { describe, expect, it } from 'vitest';
import type { Service } from '../../src/uvi/types.js';
import { aSegment } from '../helpers/builders.js';
import { flat, metered, plantPoint, run as billedUvi, unit, type Plant } from '../helpers/uvi-billed.js';
import { cumulative, n, readings, series } from '../helpers/uvi-fixtures.js';

type Month = { kwh: Parameters<typeof n>[0]; reasons: string[] };
const JUNE = 7;

const plantHeat = (id: string, monthly: number, localization: string) => plantPoint(id, localization, [series(5000, cumulative(5000, flat(monthly)))]);
const twoFlats = () => [0, 1].map((i) => unit(`WE 0${i + 1}`, [metered('hca', flat(50)), metered('water_warm', flat(2))]));
const month = (r: { units: { services: { service: Service; months: Month[] }[] }[] }, s: Service, at: number): Month =>
  r.units[0]!.services.find((x) => x.service === s)!.months[at]!;

/** The old meter measures `monthly` until its removal on `removed` (half of June), the new one from `installed` (the other half). */
function replaced(prefix: string, monthly: number, name: string, removed: string, installed: string): Plant[] {
  const old = cumulative(5000, flat(monthly)).slice(0, JUNE);
  const endOld = old.at(-1)! + monthly / 2;
  const removedSeg = series(5000, [...old, ...Array<null>(6).fill(null)], {
    deinstalled_at: removed,
    period_consumption: { end_value: endOld, billable_value: endOld - 5000, weighted_billable_value: undefined, status: 'measured' },
  });
  const rest = cumulative(monthly / 2, flat(monthly).slice(JUNE + 1));
  const installedSeg = aSegment({
    installed_at: installed,
    baseline_value: 0,
    baseline_date: installed,
    baseline_origin: 'recorded',
    readings: readings([...Array<null>(JUNE).fill(null), monthly / 2, ...rest]),
    period_consumption: { end_value: rest.at(-1)!, billable_value: rest.at(-1)!, weighted_billable_value: undefined, status: 'measured' },
  });
  return [plantPoint(`${prefix}-old`, `${name} alt`, [removedSeg], false), plantPoint(`${prefix}-new`, name, [installedSeg])];
}

describe('a plant heat meter replaced mid-month at a new point', () => {
  it.each([
    ['the same day', '2025-06-15'],
    ['the day before', '2025-06-14'],
  ])('is summed in the month of the replacement where the old one was removed %s', (_, removed) => {
    const { r } = billedUvi(twoFlats(), replaced('mp', 3000, 'WMZ Heizzentrale', removed, '2025-06-15'));
    // 3,000 kWh of plant heat less 2 × 2 m³ of warm water by § 9 Abs. 2, shared by two equal allocator flats
    expect(n(month(r, 'HEATING', JUNE).kwh)).toBe(1250);
    expect(n(month(r, 'HEATING', JUNE - 1).kwh)).toBe(1250);
    expect(r.findings.map((f) => f.code)).not.toContain('PLANT_HEAT_METERS_SEVERAL');
  });

  it('leaves the month missing where days went unmeasured between removal and installation', () => {
    const { r } = billedUvi(twoFlats(), replaced('mp', 3000, 'WMZ Heizzentrale', '2025-06-10', '2025-06-15'));
    expect(month(r, 'HEATING', JUNE).kwh).toBeNull();
    expect(month(r, 'HEATING', JUNE).reasons).toContain('plant_heat_missing');
    expect(n(month(r, 'HEATING', JUNE + 1).kwh)).toBe(n(month(r, 'HEATING', JUNE - 1).kwh));
  });

  it('is summed where a third plant meter was removed for good earlier in the year (its removal leaves no gap while the first still measured)', () => {
    const early = cumulative(9000, flat(1000)).slice(0, 3);
    const third = plantPoint(
      'mp-third',
      'WMZ Heizkreis Süd',
      [
        series(9000, [...early, ...Array<null>(10).fill(null)], {
          installed_at: '2019-06-01',
          deinstalled_at: '2025-01-31',
          replacement_reason: 'DeviceRemoval',
          period_consumption: { end_value: early.at(-1)!, billable_value: early.at(-1)! - 9000, weighted_billable_value: undefined, status: 'measured' },
        }),
      ],
      false,
    );
    const { r } = billedUvi(twoFlats(), [...replaced('mp', 3000, 'WMZ Heizzentrale', '2025-06-15', '2025-06-15'), third]);
    // before: the third meter's removal and the new meter's installation were paired, a "gap" from 1 February to 14 June
    expect(n(month(r, 'HEATING', JUNE).kwh)).toBe(1250);
    expect(month(r, 'HEATING', JUNE - 2).reasons).not.toContain('device_gap');
  });

  it('stays several where two meters were installed together', () => {
    const { r } = billedUvi(twoFlats(), [plantHeat('mp-a', 3000, 'WMZ Heizkreis Nord'), plantHeat('mp-b', 3000, 'WMZ Heizkreis Süd')]);
    expect(month(r, 'HEATING', JUNE).kwh).toBeNull();
    expect(r.findings.map((f) => f.code)).toContain('PLANT_HEAT_METERS_SEVERAL');
  });
});

describe('a warm-water heat meter replaced mid-month at a new point', () => {
  it('keeps warm water by its meter for the whole letter', () => {
    const plant = [plantHeat('mp-main', 3000, 'Hauptwärmezähler Heizraum'), ...replaced('mp-ww', 600, 'WMZ Warmwasser', '2025-06-15', '2025-06-15')];
    const { r } = billedUvi(twoFlats(), plant);
    // 600 kWh of warm-water heat shared by two flats of equal warm water: 300 each, in June as in every month
    for (const at of [0, JUNE, 12]) expect(n(month(r, 'HOT_WATER', at).kwh)).toBe(300);
    expect(n(month(r, 'HEATING', JUNE).kwh)).toBe(1200);
    expect(r.findings.map((f) => f.code)).not.toContain('WARM_WATER_HEAT_METERS_SEVERAL');
  });
});
