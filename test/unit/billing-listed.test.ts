// Unit and plant answers checked against the Property's list of measuring points: a unit's share
// of a shared meter and what a meter measures are the list's; an answer saying otherwise is not
// billed (SHARE_NOT_AS_LISTED, METRIC_NOT_AS_LISTED). The same answers over HTTP: faults/contract-breaks.
import { describe, expect, it } from 'vitest';
import { billPlantPoint, billProperty, flagMessage } from '../../src/billing/index.js';
import { PROPERTY, aPlantPoint, aPointConsumption, aPropertyInput, aSegment, aUnitEntry, sharedCopies } from '../helpers/builders.js';

describe('a shared point whose shares the answers give otherwise than the Property list', () => {
  // WE 01/WE 02 listed 60/40, sent 40/60: each answer consistent, the sum still 1
  const [sent01, sent02] = sharedCopies(40, [0.4, 0.6], { metric: 'heat', unit: 'kWh' });
  const we01 = aUnitEntry('WE 01', [sent01!]);
  const we02 = aUnitEntry('WE 02', [sent02!]);
  const listed = (s01: number, s02: number) => [
    {
      id: sent01!.measuring_point_id,
      property_id: PROPERTY.id,
      usage_unit_id: we01.unit.id,
      allocations: [
        { usage_unit_id: we01.unit.id, share: s01 },
        { usage_unit_id: we02.unit.id.toUpperCase(), share: s02 },
      ],
    },
  ];

  it('is billed to neither unit, naming both shares (SHARE_NOT_AS_LISTED)', () => {
    const bill = billProperty(aPropertyInput({ units: [we01, we02], points: listed(0.6, 0.4) }));
    expect(bill.billing.map((r) => [r.usage_unit_name, r.billable_value, r.review_flags])).toEqual([
      ['WE 01', '0', ['SHARE_NOT_AS_LISTED']],
      ['WE 02', '0', ['SHARE_NOT_AS_LISTED']],
    ]);
    expect(bill.flags.filter((f) => f.code === 'SHARE_NOT_AS_LISTED').map((f) => f.facts)).toEqual([
      { unit_share: '0.4', listed_share: '0.6' },
      { unit_share: '0.6', listed_share: '0.4' },
    ]);
    expect(flagMessage(bill.flags[0]!, 'de')).toMatch(
      /^Anteil am gemeinsamen Zähler weicht vom Messstellenverzeichnis ab: nicht abgerechnet \(Anteil dieser Einheit: 0,4, Anteil laut Messstellenverzeichnis: 0,6\)/,
    );
  });

  it('as listed (within the share tolerance, a third as 0.33333) it is billed', () => {
    expect(billProperty(aPropertyInput({ units: [we01, we02], points: listed(0.4, 0.6) })).billing.map((r) => r.billable_value)).toEqual(['16', '24']);
    const thirds = sharedCopies(30, [1 / 3, 0.33333], { metric: 'heat', unit: 'kWh' }).map((c, i) => aUnitEntry(`WE 0${i + 1}`, [c]));
    const points = [
      {
        id: thirds[0]!.consumption.measuring_points[0]!.measuring_point_id,
        property_id: PROPERTY.id,
        usage_unit_id: thirds[0]!.unit.id,
        allocations: thirds.map((t) => ({ usage_unit_id: t.unit.id, share: 1 / 3 })),
      },
    ];
    expect(billProperty(aPropertyInput({ units: thirds, points })).flags.filter((f) => f.code === 'SHARE_NOT_AS_LISTED')).toEqual([]);
  });

  it('a list naming one unit twice with two shares matches no answer', () => {
    const twice = [...listed(0.4, 0.6), ...listed(0.6, 0.4)];
    expect(billProperty(aPropertyInput({ units: [we01, we02], points: twice })).billing.map((r) => r.billable_value)).toEqual(['0', '0']);
  });
});

describe('a point the answer gives another metric or unit than the Property list', () => {
  // WE 01's heat meter relabelled as cold water: its kWh would join the m³ of the cold-water row
  const water = aPointConsumption({
    metric: 'water_cold',
    unit: 'm3',
    segments: [aSegment({ period_consumption: { billable_value: 40, weighted_billable_value: 40 } })],
  });
  const heat = aPointConsumption({
    metric: 'water_cold',
    unit: 'm3',
    segments: [aSegment({ period_consumption: { billable_value: 5000, weighted_billable_value: 5000 } })],
  });
  const entry = aUnitEntry('WE 01', [water, heat]);
  const listed = (metric: string | undefined, unit: string | undefined) =>
    [
      { id: water.measuring_point_id, property_id: PROPERTY.id, metric: 'water_cold', unit: 'm3' },
      { id: heat.measuring_point_id.toUpperCase(), property_id: PROPERTY.id, metric, unit },
    ] as never;

  it('is not billed, naming both (METRIC_NOT_AS_LISTED): another metric, or another unit of the same metric', () => {
    const bill = billProperty(aPropertyInput({ units: [entry], points: listed('heat', 'kWh') }));
    expect(bill.billing.map((r) => [r.metric, r.billable_value, r.review_flags])).toEqual([['water_cold', '40', ['METRIC_NOT_AS_LISTED']]]);
    expect(bill.flags.find((f) => f.code === 'METRIC_NOT_AS_LISTED')?.facts).toEqual({ received: 'water_cold (m3)', listed: 'heat (kWh)' });
    expect(billProperty(aPropertyInput({ units: [entry], points: listed('water_cold', 'l') })).billing[0]!.billable_value).toBe('40');
  });

  it('a plant-room meter whose readings answer gives another unit than the list is not billed in plant-points', () => {
    const plant = aPlantPoint({ point: { metric: 'heat', unit: 'kWh' }, consumption: { metric: 'heat', unit: 'm3' } });
    const bill = billPlantPoint({ property: PROPERTY, ...plant });
    expect([bill.row.billable_value, bill.row.review_flags]).toEqual(['0', ['METRIC_NOT_AS_LISTED', 'UNALLOCATED_POINT']]);
    expect(
      billPlantPoint({ property: PROPERTY, ...aPlantPoint({ point: { metric: 'heat', unit: 'kWh' }, consumption: { metric: 'heat', unit: 'kWh' } }) }).row
        .billable_value,
    ).toBe('500');
  });

  it('as listed, or where the list names no metric or unit, it is billed', () => {
    expect(billProperty(aPropertyInput({ units: [entry], points: listed('water_cold', 'm3') })).billing[0]).toMatchObject({
      billable_value: '5040',
      review_flags: [],
    });
    expect(billProperty(aPropertyInput({ units: [entry], points: listed(undefined, undefined) })).billing[0]!.billable_value).toBe('5040');
  });
});
