// A shared meter (one measuring point in two units' consumption answers, each with its share)
// whose copies disagree: the same device and window with other values, or another device named
// for the point. Each unit's copy was billed at its share with no finding (over HTTP, Musterstraße's
// WE 14/WE 15 heat meter with WE 15's copy at 1.5 times billed WE 15 5457.514 instead of 3638.343).
// Now the point is billed in none of its units, with COPIES_DISAGREE naming the units.
import { describe, expect, it } from 'vitest';
import { billProperty, flagMessage } from '../../src/billing/index.js';
import { disagreeingCopies } from '../../src/billing/copies.js';
import { consumptionJson, unitJson } from '../../src/sandbox/api/serialize.js';
import { mi } from '../../src/sandbox/data/dates.js';
import { generateDataset } from '../../src/sandbox/data/index.js';
import { PROPERTY, aPointConsumption, aPropertyInput, aReading, aSegment, aUnitEntry, uuid } from '../helpers/builders.js';

describe('a shared meter whose copies under two units disagree on the consumption', () => {
  const id = uuid();
  const device = uuid();
  const copy = (billable: number, share = 0.5) =>
    aPointConsumption({
      measuring_point_id: id,
      unit_share: share,
      segments: [
        aSegment({ device_id: device, serial: 'SN-SHARED', period_consumption: { billable_value: billable, weighted_billable_value: billable * share } }),
      ],
    });
  const we01 = aUnitEntry('WE 01', [copy(100)]);
  const we02 = aUnitEntry('WE 02', [copy(1000)]);
  const points = [
    {
      id,
      property_id: PROPERTY.id,
      usage_unit_id: we01.unit.id,
      metric: 'heat',
      unit: 'kWh',
      allocations: [
        { usage_unit_id: we01.unit.id, share: 0.5 },
        { usage_unit_id: we02.unit.id, share: 0.5 },
      ],
    },
  ];
  const notBilled = (bill: ReturnType<typeof billProperty>) => bill.flags.filter((f) => f.severity === 'not_billed');

  it('is not billed as 50 + 500 (one meter, 100 or 1000, never both) without a finding', () => {
    const bill = billProperty(aPropertyInput({ units: [we01, we02], points }));
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['0', '0']);
    expect(notBilled(bill).map((f) => [f.code, f.usage_unit_id, f.measuring_point_id, f.facts?.sent_by])).toEqual([
      ['COPIES_DISAGREE', we01.unit.id, id, 'WE 01, WE 02'],
      ['COPIES_DISAGREE', we02.unit.id, id, 'WE 01, WE 02'],
    ]);
    expect(flagMessage(notBilled(bill)[0]!, 'de')).toMatch(/Gemeinsamer Zähler.*geliefert für: WE 01, WE 02/s);
  });

  it('names the meter when the two units name different devices for it over the same window', () => {
    const other = aPointConsumption({
      measuring_point_id: id,
      unit_share: 0.5,
      segments: [aSegment({ serial: 'SN-OTHER', period_consumption: { billable_value: 100, weighted_billable_value: 50 } })],
    });
    const bill = billProperty(aPropertyInput({ units: [we01, aUnitEntry('WE 02', [other], { id: we02.unit.id })], points }));
    expect(notBilled(bill).map((f) => f.code)).toEqual(['COPIES_DISAGREE', 'COPIES_DISAGREE']);
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['0', '0']);
  });

  it.each([
    ['replacement_reason', { replacement_reason: 'DeviceRemoval' }],
    ['baseline_origin', { baseline_origin: 'first_reading' }],
    ["a reading's substitution_method", { readings: [aReading({ value: 200, status: 'estimated', substitution_method: 'last_value_forward' })] }],
  ] as const)('copies that differ only in %s disagree (units would get different findings)', (_, change) => {
    const base = {
      device_id: device,
      serial: 'SN-SHARED',
      readings: [aReading({ value: 200, status: 'estimated', substitution_method: 'linear_interpolation' })],
      period_consumption: { billable_value: 100, weighted_billable_value: 50 },
    };
    const a = aUnitEntry('WE 01', [aPointConsumption({ measuring_point_id: id, unit_share: 0.5, segments: [aSegment(base)] })], { id: we01.unit.id });
    const b = aUnitEntry('WE 02', [aPointConsumption({ measuring_point_id: id, unit_share: 0.5, segments: [aSegment({ ...base, ...change } as never)] })], {
      id: we02.unit.id,
    });
    expect(notBilled(billProperty(aPropertyInput({ units: [a, b], points }))).map((f) => f.code)).toEqual(['COPIES_DISAGREE', 'COPIES_DISAGREE']);
  });

  it('copies that differ only in is_system_linked disagree; absent counts as true', () => {
    const c = (linked: boolean | undefined) => {
      const p = copy(100);
      if (linked === undefined) delete p.is_system_linked;
      else p.is_system_linked = linked;
      return p;
    };
    const bill = (x: boolean | undefined, y: boolean | undefined) =>
      billProperty(aPropertyInput({ units: [aUnitEntry('WE 01', [c(x)], { id: we01.unit.id }), aUnitEntry('WE 02', [c(y)], { id: we02.unit.id })], points }));
    expect(notBilled(bill(true, false)).map((f) => f.code)).toEqual(['COPIES_DISAGREE', 'COPIES_DISAGREE']);
    expect(notBilled(bill(true, undefined))).toEqual([]);
  });

  it("copies that agree but for each unit's share and weighted value are billed at their shares (60/40)", () => {
    const listed = [
      {
        ...points[0]!,
        allocations: [
          { usage_unit_id: we01.unit.id, share: 0.6 },
          { usage_unit_id: we02.unit.id, share: 0.4 },
        ],
      },
    ];
    const a = aUnitEntry('WE 01', [copy(100, 0.6)], { id: we01.unit.id });
    const b = aUnitEntry('WE 02', [copy(100, 0.4)], { id: we02.unit.id });
    const bill = billProperty(aPropertyInput({ units: [b, a], points: listed }));
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['60', '40']);
    expect(bill.flags).toEqual([]);
  });

  it('a unit whose copy is not listed for it does not make the listed copies disagree', () => {
    const stranger = aUnitEntry('WE 03', [copy(1000)]);
    const bill = billProperty(aPropertyInput({ units: [we01, aUnitEntry('WE 02', [copy(100)], { id: we02.unit.id }), stranger], points }));
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['50', '50', '0']);
    expect(bill.flags.map((f) => f.code)).toEqual(['POINT_NOT_LISTED']);
  });

  it('an early bill of a unit (the export bills each unit as it arrives) is billed again when the copies disagree', () => {
    const early = billProperty(aPropertyInput({ units: [we01], points })).units[0]!;
    expect(early.billing[0]!.billable_value).toBe('50');
    const bill = billProperty(aPropertyInput({ units: [we01, we02], points }), (e) =>
      e === we01 ? { range: { from: '2025-01-01', to: '2025-12-31' }, bill: early } : undefined,
    );
    expect(bill.billing.map((r) => r.billable_value)).toEqual(['0', '0']);
  });
});

describe("the sandbox's shared meters", () => {
  it('agree across their units in every range: replacements, removals, ranges from 2019 to 2026', () => {
    const ds = generateDataset({ seed: 'copies', units: 400 });
    const ranges: [number, number][] = [
      [mi(2019, 1), mi(2019, 12)],
      [mi(2024, 1), mi(2024, 12)],
      [mi(2025, 1), mi(2025, 12)],
      [mi(2025, 3), mi(2025, 5)],
      [mi(2024, 6), mi(2026, 12)],
    ];
    const found: string[] = [];
    let shared = 0;
    for (const p of ds.properties()) {
      for (const [f, t] of ranges) {
        const units = [];
        for (let idx = p.unitStart; idx < p.unitEnd; idx++) {
          const u = ds.unitByIndex(idx)!;
          const measuring_points = ds.pointsOfUnit(u).map(({ point, share }) => consumptionJson(ds, ds.consumption(point, f, t), share)) as never[];
          shared += (measuring_points as { unit_share?: number }[]).filter((c) => (c.unit_share ?? 1) < 1).length;
          units.push({ unit: unitJson(ds, u) as never, consumption: { usage_unit_id: '', external_ref: null, from: '', to: '', measuring_points } });
        }
        for (const [id, b] of disagreeingCopies(units)) found.push(`${id} ${JSON.stringify(b.facts)}`);
      }
    }
    expect(shared).toBeGreaterThan(20);
    expect(found).toEqual([]);
  });
});
