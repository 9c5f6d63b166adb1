// One billing path (issue 14): browse bills a Property with billing's own input, the
// Property's measuring-point list included (rule 7: a point the list says is not
// system-linked is flagged though its consumption answer says nothing), and adds the
// export's review flags for unknown values in that list. Every unit's billed values and
// flags on the screens equal the export's billing.csv and review.csv for the same answers.
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import type { MeasuringPoint, Property } from '../../src/api/types.js';
import { billProperty, flagText } from '../../src/billing/index.js';
import { parseExportArgs } from '../../src/export/options/options.js';
import { runExport } from '../../src/export/run.js';
import { loadTemplate } from '../../src/export/output/templates.js';
import { parseCsv } from '../../src/plausibility/index.js';
import { createBrowseData } from '../../src/tui/data.js';
import { unitScreen } from '../../src/tui/screens-unit.js';
import { ListView } from '../../src/tui/view.js';
import { aPlantPoint, aPointConsumption, aSegment, aUnitEntry, PROPERTY, uuid } from '../helpers/builders.js';

function answers() {
  const property: Property = { id: PROPERTY.id, tenant_id: uuid(2), external_ref: null, name: PROPERTY.name, addresses: [], usage_unit_count: 2 };
  const heat = aPointConsumption({ metric: 'heat', unit: 'kWh' }); // says it is system-linked; the Property's list says it is not
  const water = aPointConsumption({
    metric: 'water_cold',
    unit: 'm3',
    segments: [aSegment({ period_consumption: { end_value: 130, billable_value: 0, weighted_billable_value: 0, status: 'calibration_expired' } })],
  });
  const a = aUnitEntry('WE 01', [heat], { property_id: property.id });
  const b = aUnitEntry('WE 02', [water], { property_id: property.id });
  const plant = aPlantPoint({ point: { property_id: property.id } });
  const listed = (c: typeof heat, unitId: string, extra: Partial<MeasuringPoint> = {}): MeasuringPoint => ({
    id: c.measuring_point_id,
    usage_unit_id: unitId,
    property_id: property.id,
    metric: c.metric,
    obis: null,
    unit: c.unit,
    localization: 'Bad',
    active_device: null,
    is_difference_meter: false,
    is_system_linked: true,
    allocations: [],
    ...extra,
  });
  const points: MeasuringPoint[] = [
    listed(heat, a.unit.id, { is_system_linked: false }),
    listed(water, b.unit.id),
    // a point of WE 02 with a metric this version does not know: billing never reads it, the export flags it
    { ...listed(aPointConsumption(), b.unit.id), metric: 'district_cooling' as never },
    plant.point,
  ];
  return { property, units: [a, b], plant: [plant], points };
}

function memoryApi(d: ReturnType<typeof answers>): ApiClient {
  async function* each<T>(items: T[]) {
    yield* items;
  }
  return {
    whoami: async () => ({ tenant_id: uuid(2), tenant_name: 'Nordlicht', client_id: 'c', granted_scopes: [], property_scope: 'all' }),
    listProperties: () => each([d.property]),
    getProperty: async () => d.property,
    listPropertyMeasuringPoints: () => each(d.points),
    listUsageUnits: () => each(d.units.map((u) => u.unit)),
    getUsageUnit: async () => d.units[0]!.unit,
    unitConsumption: async (id) => d.units.find((u) => u.unit.id === id)!.consumption,
    getMeasuringPoint: async () => d.points[0]!,
    pointReadings: async (id) => d.plant.find((p) => p.point.id === id)!.consumption,
    forgetProperty: () => undefined,
    stats: () => ({ requests: 0, retries: 0, rateLimited: 0 }),
    close: async () => {},
  };
}

/** A CSV of the generic layout as objects by header. */
async function table(file: string): Promise<Record<string, string>[]> {
  const [head, ...rows] = parseCsv(await readFile(file, 'utf8'), ',').filter((r) => r.some((c) => c !== ''));
  return rows.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ''])));
}

describe('browse and export bill a Property the same way', () => {
  it('every unit shows the billed values and flags the export writes, the point list (rule 7) and its unknown values included', async () => {
    const d = answers();
    const home = await mkdtemp(path.join(os.tmpdir(), 'md-browse-bill-'));
    // Billing alone: browse adds the plausibility review only with a comparison range (`vs`).
    const args = parseExportArgs({ year: '2025', out: 'out', plausibility: false }, home, {});
    const template = await loadTemplate('generic', process.cwd());
    const reporter = { begin() {}, unit() {}, property() {}, note() {}, end() {} };
    await runExport({
      api: memoryApi(d),
      args,
      template,
      stateDir: path.join(home, 'state'),
      reporter,
      toolVersion: 't',
      now: () => new Date('2026-11-22T08:00:00Z'),
    });
    const billing = await table(path.join(args.out, 'billing.csv'));
    const review = await table(path.join(args.out, 'review.csv'));

    const b = await createBrowseData({ api: memoryApi(d), billProperty, flagText }).loadProperty(d.property, { from: '2025-01-01', to: '2025-12-31' });
    for (const { unit } of d.units) {
      const exported = billing.filter((r) => r.usage_unit_id === unit.id).map((r) => [r.metric, r.billable_value, r.review_flags]);
      const shown = b.bill.billing.filter((r) => r.usage_unit_id === unit.id).map((r) => [r.metric, r.billable_value, r.review_flags.join('|')]);
      expect(shown, unit.name).toEqual(exported);
      // the same fields of a flag and of a review.csv row (an empty cell is a null id)
      const flagsOf = (rows: readonly object[]) =>
        (rows as Record<string, string | null>[])
          .filter((f) => f.usage_unit_id === unit.id)
          .map((f) => [f.code, f.measuring_point_id || null, f.device_id || null].join(' '))
          .sort();
      expect(flagsOf(b.bill.flags), unit.name).toEqual(flagsOf(review));
      expect(flagsOf(b.bill.flags).length, unit.name).toBeGreaterThan(0);
    }
    const [a, second] = d.units;
    expect(b.bill.flags.filter((f) => f.usage_unit_id === a!.unit.id).map((f) => f.code)).toContain('NOT_SYSTEM_LINKED');
    expect(b.bill.flags.filter((f) => f.usage_unit_id === second!.unit.id).map((f) => f.code)).toEqual(
      expect.arrayContaining(['CALIBRATION_EXPIRED', 'UNKNOWN_ENUM_VALUE']),
    );
    // and the unit screen says so on the point line
    const text = unitScreen(b, a!.unit.id, (f) => f.code)!
      .rows.map((r) => r.spans.map((s) => s.text).join(''))
      .join('\n');
    expect(text).toContain('NOT system linked');
  });

  it('a unit answer that breaks the contract is not added up in browse either, and its screen shows every copy', async () => {
    const d = answers();
    const [a, b] = d.units;
    const heat = a!.consumption.measuring_points[0]!;
    heat.segments.push({ ...structuredClone(heat.segments[0]!), device_id: uuid(), serial: 'H-COPY' });
    b!.consumption.measuring_points.push(structuredClone(b!.consumption.measuring_points[0]!));
    const bundle = await createBrowseData({ api: memoryApi(d), billProperty, flagText }).loadProperty(d.property, { from: '2025-01-01', to: '2025-12-31' });
    expect(bundle.bill.billing.map((r) => [r.usage_unit_name, r.billable_value, r.points])).toEqual([
      ['WE 01', '0', 1],
      ['WE 02', '0', 1],
    ]);
    expect(bundle.bill.flags.map((f) => f.code)).toEqual(expect.arrayContaining(['SEGMENTS_OVERLAP', 'POINT_REPEATED']));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const unit of [a!.unit, b!.unit]) {
        const rows = unitScreen(bundle, unit.id, (f) => f.code)!.rows;
        const frame = render(<ListView rows={rows} cursor={0} width={200} height={rows.length} />).lastFrame() ?? '';
        expect(frame.match(/billed 0 kWh|billed 0 m3/g)?.length, unit.name).toBe(unit === a!.unit ? 1 : 2);
      }
      expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });
});
