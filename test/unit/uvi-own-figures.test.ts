// A unit's own figure on its letter rests only on its own meters, all of them: a meter the Property
// lists for the unit but the unit's answer lacks leaves the month missing (never the smaller sum of
// the meters sent, never a section gone from the letter), and the letter counts as incomplete. The
// mark "*" belongs to the figure printed: the unit's own allocator units carry their own readings'
// mark, not that of the converted kWh (which rest on every unit's allocators and the plant heat).
import { describe, expect, it } from 'vitest';
import type { MeasuringPoint } from '../../src/api/types.js';
import { reasonWords } from '../../src/uvi/compare.js';
import { letterModel } from '../../src/uvi/letter/index.js';
import { uviReviewRows } from '../../src/uvi/portal/index.js';
import type { Service } from '../../src/uvi/types.js';
import { absentPoints, namedByUvi } from '../../src/uvi/absent.js';
import { shownFinding } from '../../src/uvi/verdict.js';
import { PROPERTY, aPlantPoint, pointListOf } from '../helpers/builders.js';
import { flat, metered, plantHeat, run, unit, type Entry, type Run } from '../helpers/uvi-billed.js';
import { cumulative, n, point, series } from '../helpers/uvi-fixtures.js';

const month = (r: Run, i: number, s: Service, at = 12) => r.r.units[i]!.services.find((x) => x.service === s)?.months[at];

/** The Property's point list with one more meter of `metric` for unit `i` that no answer carries. */
function listedNotSent(units: Entry[], i: number, metric: string, plant: ReturnType<typeof plantHeat>[] = []): MeasuringPoint[] {
  const points = pointListOf({ property: PROPERTY, units, plant });
  points.push({
    id: 'mp-not-sent',
    usage_unit_id: units[i]!.unit.id,
    property_id: PROPERTY.id,
    metric,
    unit: metric === 'heat' ? 'kWh' : 'm3',
  } as MeasuringPoint);
  return points;
}

/** review.csv's rows as the uvi step makes them: billing's LISTED_POINT_NOT_SENT only where the uvi does not name the meter itself. */
function review(r: Run, units: Entry[], lang: 'de' | 'en', points: MeasuringPoint[]) {
  const portal = {
    property: PROPERTY,
    month: '2025-11',
    units: r.r.units.map((uvi, i) => ({ unit: units[i]!.unit, erpRef: null, uvi })),
    findings: r.r.findings,
  };
  const twice = namedByUvi(absentPoints(points, units));
  return uviReviewRows(
    portal,
    lang,
    r.bill.flags.filter((f) => shownFinding(f) && !twice(f)),
  );
}

describe('a meter the Property lists for the unit but its answer lacks', () => {
  it('warm water: of two listed warm-water meters one is sent; the month is missing, not the 250 kWh of the one sent', () => {
    const units = [unit('WE 01', [metered('water_warm', flat(2))]), unit('WE 02', [metered('water_warm', flat(2))])];
    const listed = listedNotSent(units, 0, 'water_warm');
    const r = run(units, [], listed);
    const m = month(r, 0, 'HOT_WATER')!;
    expect([n(m.kwh), n(m.native), m.reasons]).toEqual([null, null, ['own_point_not_sent']]);
    // WE 02's own meter is all there: its figure stays (formula, no warm-water heat meter)
    expect(n(month(r, 1, 'HOT_WATER')!.kwh)).toBe(250);
    const rows = review(r, units, 'de', listed).filter((x) => x.usage_unit_name === 'WE 01');
    expect(rows.map((x) => [x.letter, x.code])).toEqual([
      ['check', 'POINT_NOT_SENT'],
      ['incomplete', 'MONTH_MISSING'],
    ]);
    expect(rows[0]!.message).toContain('fehlen der Wert dieser Nutzeinheit');
    expect(rows[1]!.message).toContain('für einen Zähler dieser Nutzeinheit, den die Liegenschaft führt, hat der Messdienst keine Daten geliefert');
  });

  it('heat meters: of two listed heat meters one is sent; the month is missing, not 300 kWh', () => {
    const units = [unit('WE 01', [metered('heat', flat(300))]), unit('WE 02', [metered('heat', flat(300))])];
    const r = run(units, [], listedNotSent(units, 0, 'heat'));
    expect([n(month(r, 0, 'HEATING')!.kwh), month(r, 0, 'HEATING')!.reasons]).toEqual([null, ['own_point_not_sent']]);
    expect(n(month(r, 1, 'HEATING')!.kwh)).toBe(300);
  });

  it('the unit’s only heat meter not sent: a heating section with "–" in every month, not a letter without heating', () => {
    const units = [unit('WE 01', [metered('water_warm', flat(2))]), unit('WE 02', [metered('heat', flat(300))])];
    const listed = listedNotSent(units, 0, 'heat');
    const r = run(units, [], listed);
    const heating = r.r.units[0]!.services.find((s) => s.service === 'HEATING');
    expect(heating?.months.every((m) => m.kwh === null && m.native === null && m.reasons.includes('own_point_not_sent'))).toBe(true);
    expect(review(r, units, 'en', listed).filter((x) => x.usage_unit_name === 'WE 01' && x.service === 'HEATING')[0]).toMatchObject({
      letter: 'incomplete',
      code: 'MONTH_MISSING',
    });
  });

  it('allocators: the unit’s own allocator not sent is named as its own, in both languages, and its remaining units are not shown', () => {
    const units = [unit('WE 01', [metered('hca', flat(50))]), unit('WE 02', [metered('hca', flat(50))])];
    const main = plantHeat('mp-p', flat(3000));
    const r = run(units, [main], listedNotSent(units, 1, 'hca', [main]));
    const own = month(r, 1, 'HEATING')!;
    expect([n(own.native), n(own.kwh), own.reasons]).toEqual([null, null, ['own_point_not_sent']]);
    expect(reasonWords(own.reasons, 'de')).toEqual([
      'für einen Zähler dieser Nutzeinheit, den die Liegenschaft führt, hat der Messdienst keine Daten geliefert',
    ]);
    expect(reasonWords(own.reasons, 'en')).toEqual(['the property lists a meter of this unit whose data the metering service did not send']);
    // the other flat keeps its own units; its kWh wait for the whole sum
    expect([n(month(r, 0, 'HEATING')!.native), month(r, 0, 'HEATING')!.reasons]).toEqual([50, ['allocator_sum_incomplete']]);
  });
});

describe('the mark "*" of a figure', () => {
  it('a letter in allocator units (no plant reading in November): WE 01’s measured October units carry no mark from WE 02’s calculated reading', () => {
    const calculatedAt = (i: number) => cumulative(1000, flat(50)).map((v, k) => (k === i ? ([v, 'calculated'] as [number, string]) : v));
    const we01 = point('hca', [series(1000, cumulative(1000, flat(50)))]);
    const we02 = point('hca', [series(1000, calculatedAt(11))]);
    const plantValues = cumulative(5000, flat(3000)).map((v, i) => (i === 12 ? null : v));
    const period = { end_value: 5000 + 3000 * 12, billable_value: 3000 * 12, weighted_billable_value: 3000 * 12, status: 'missing' as const };
    const { unit_share: _none, ...consumption } = point('heat', [series(5000, plantValues, { period_consumption: period })], 1, { measuring_point_id: 'mp-p' });
    const main = aPlantPoint({ point: { id: 'mp-p', metric: 'heat', unit: 'kWh', localization: 'Heizzentrale' }, consumption });
    const units = [unit('WE 01', [we01]), unit('WE 02', [we02])];
    const r = run(units, [main]);
    // October's kWh rest on WE 02's calculated reading (the Property's sum): estimated; WE 01's own units do not
    expect([month(r, 0, 'HEATING', 11)!.estimated, month(r, 0, 'HEATING', 11)!.native_estimated]).toEqual([true, false]);
    const letter = (i: number) =>
      letterModel({
        property: PROPERTY,
        address: units[i]!.unit.address,
        unit: units[i]!.unit,
        erpRef: null,
        month: '2025-11',
        uvi: r.r.units[i]!,
        benchmarkSource: 'x',
        wwTemperature: 60,
        lang: 'de',
      }).services[0]!;
    expect(
      letter(0)
        .rows.slice(0, 2)
        .map((x) => x.figure),
    ).toEqual(['50,0 Einheiten', '50,0 Einheiten']);
    expect(letter(0).chart.bars[11]).toMatchObject({ value: 50, estimated: false });
    // WE 02's own October units rest on its calculated reading: marked
    expect(letter(1).rows[1]!.figure).toBe('50,0 Einheiten *');
    expect(letter(1).chart.bars[11]).toMatchObject({ value: 50, estimated: true });
  });
});
