// Wohnbau Rheinblick eG's fixed Properties in the data model: the same records and ids
// whatever --units is, no id shared with the generated landlords, values that only count up.
import { describe, expect, it } from 'vitest';
import { generateDataset, RHEINBLICK_TENANT_NAME, type Dataset } from '../../src/sandbox/data/index.js';

const rheinblick = (ds: Dataset) => ds.tenants().find((t) => t.name === RHEINBLICK_TENANT_NAME)!;

function records(ds: Dataset) {
  const props = ds.properties(rheinblick(ds).id);
  const units = props.flatMap((p) => Array.from({ length: p.unitEnd - p.unitStart }, (_, i) => ds.unitByIndex(p.unitStart + i)!));
  const points = props.flatMap((p) => ds.pointsOfProperty(p));
  return { props, units, points };
}

function ids(ds: Dataset, r: ReturnType<typeof records>): string[] {
  return [
    ...r.props.map((p) => ds.propertyId(p)),
    ...r.units.map((u) => ds.unitId(u)),
    ...r.points.map((p) => ds.pointId(p)),
    ...r.points.flatMap((p) => p.devices.map((d) => ds.deviceId(d))),
  ];
}

describe('Wohnbau Rheinblick eG in the data set', () => {
  it('is the third tenant, with three Properties of 6, 6 and 4 units whatever the number of generated units', () => {
    const small = generateDataset({ units: 1 });
    const large = generateDataset({ units: 50_000 });
    expect(
      small
        .tenants()
        .map((t) => t.name)
        .at(-1),
    ).toBe(RHEINBLICK_TENANT_NAME);
    const a = records(small);
    expect(a.props.map((p) => [p.name, p.unitEnd - p.unitStart])).toEqual([
      ['Rheinuferstraße 12', 6],
      ['Rheinuferstraße 14', 6],
      ['Am Leinpfad 3', 4],
    ]);
    expect(JSON.stringify(records(large))).toBe(JSON.stringify(a));
    expect(ids(large, records(large))).toEqual(ids(small, a));
  });

  it('every id resolves to its own record and to none of the generated landlords’', () => {
    const ds = generateDataset({ units: 50_000 });
    const r = records(ds);
    for (const p of r.props) expect(ds.property(ds.propertyId(p))).toBe(p);
    for (const u of r.units) expect(ds.unit(ds.unitId(u))).toBe(u);
    for (const p of r.points) {
      expect(ds.point(ds.pointId(p))).toEqual(p);
      for (const d of p.devices) expect(ds.device(ds.deviceId(d))).toEqual(d);
    }
    const own = new Set(ids(ds, r));
    expect(own.size).toBe(ids(ds, r).length);
    // The generated landlords' Properties, their first and last units and the points of both: none shares an id.
    const bulk = ds.properties();
    const edge = [0, 1, 20, 21, 49_999].map((i) => ds.unitByIndex(i)!);
    const theirs = [
      ...bulk.map((p) => ds.propertyId(p)),
      ...edge.map((u) => ds.unitId(u)),
      ...edge.flatMap((u) => ds.pointsOfUnit(u).map((x) => ds.pointId(x.point))),
      ...ds.pointsOfProperty(bulk.at(-2)!).map((p) => ds.pointId(p)),
    ];
    expect(theirs.filter((id) => own.has(id))).toEqual([]);
    expect(bulk.some((p) => p.name.startsWith('Rheinufer') || p.name === 'Am Leinpfad 3')).toBe(false);
  });

  it('month-end values never decrease and match valueAt', () => {
    const ds = generateDataset({});
    for (const p of records(ds).points) {
      for (const d of p.devices) {
        let last = -Infinity;
        for (const v of ds.monthValues(d, '2024-01-01', '2026-12-31').filter((x) => x.status !== 'missing')) {
          expect(v.milli).toBe(ds.valueAt(d, v.at));
          expect(v.milli).toBeGreaterThanOrEqual(last);
          last = v.milli;
        }
      }
    }
  });
});
