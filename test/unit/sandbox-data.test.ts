// The synthetic data generator: determinism, every special case in the default data set,
// raw-model invariants, and the footprint of 50,000 units (time printed; heap growth bounded).
import { describe, expect, it } from 'vitest';
import { generateDataset, type Dataset, type PointRec } from '../../src/sandbox/data/index.js';
import { miOf } from '../../src/sandbox/data/dates.js';
import { BASELINE_ORIGINS } from '../../src/api/types.js';

function allPoints(ds: Dataset): PointRec[] {
  return ds.properties().flatMap((p) => ds.pointsOfProperty(p));
}
function snapshot(ds: Dataset): string {
  const units = Array.from({ length: ds.unitCount }, (_, i) => ds.unitByIndex(i));
  return JSON.stringify({
    props: ds.properties().map((p) => [ds.propertyId(p), p]),
    units: units.map((u) => [ds.unitId(u!), u]),
    points: allPoints(ds).map((p) => [ds.pointId(p), p]),
  });
}

describe('generateDataset', () => {
  it('is deterministic per seed and units; another seed gives other ids', () => {
    expect(snapshot(generateDataset({}))).toBe(snapshot(generateDataset({ seed: 'meterdata', units: 60 })));
    const a = generateDataset({ seed: 1 });
    const b = generateDataset({ seed: 2 });
    expect(a.tenants()[0]!.id).not.toBe(b.tenants()[0]!.id);
    expect(a.tenants().map((t) => t.name)).toEqual(['Hausverwaltung Nordlicht GmbH', 'Immobilien Süd KG', 'Wohnbau Rheinblick eG']);
  });

  it('rejects a unit count outside 1..50000', () => {
    expect(() => generateDataset({ units: 0 })).toThrow(/1 to 50000/);
    expect(() => generateDataset({ units: 50_001 })).toThrow(/1 to 50000/);
  });

  it('ids are v4-format UUIDs that resolve back, and only for their own kind and seed', () => {
    const ds = generateDataset({});
    const p = ds.properties()[0]!;
    const id = ds.propertyId(p);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ds.property(id)).toBe(p);
    expect(ds.property(id.toUpperCase())).toBe(p);
    expect(ds.unit(id)).toBeUndefined();
    expect(generateDataset({ seed: 'x' }).property(id)).toBeUndefined();
    const pt = allPoints(ds)[5]!;
    expect(ds.point(ds.pointId(pt))).toEqual(pt);
    expect(ds.device(ds.deviceId(pt.devices[0]!))).toEqual(pt.devices[0]);
  });

  it('Directory: tenants() and propertiesOf() for the consent page', () => {
    const ds = generateDataset({});
    const [nord, sued] = ds.tenants();
    expect(ds.propertiesOf(nord!.id).map((p) => p.name)).toEqual(['Musterstraße 1-5', 'Lindenhof', 'Lessingstraße 7']);
    expect(ds.propertiesOf(sued!.id).map((p) => p.name)).toEqual([expect.stringMatching(/^Birkenweg /), 'Gewerbehof Kanalstraße 2-4']);
    expect(ds.propertiesOf('nope')).toEqual([]);
  });

  it('every special case occurs in the default data set', () => {
    const ds = generateDataset({});
    const points = allPoints(ds);
    const devices = points.flatMap((p) => p.devices);
    const units = Array.from({ length: ds.unitCount }, (_, i) => ds.unitByIndex(i)!);
    expect(ds.properties().length).toBeGreaterThanOrEqual(3);
    expect(ds.properties().some((p) => p.unitCountUnknown)).toBe(true);
    expect(new Set(units.map((u) => u.type))).toEqual(new Set(['residential', 'commercial', 'technical', 'traffic']));
    const p0 = ds.properties()[0]!;
    const usedAddresses = new Set(units.filter((u) => u.propertyIdx === 0).map((u) => u.addressIdx));
    expect(p0.addresses.filter((_, i) => !usedAddresses.has(i))).toHaveLength(1);
    expect(points.some((p) => p.allocations.length === 0)).toBe(true);
    expect(points.filter((p) => p.allocations.length > 1)).toHaveLength(3);
    for (const p of points.filter((x) => x.allocations.length)) {
      expect(p.allocations.reduce((s, a) => s + Number(a.share) * 1000, 0)).toBe(1000);
    }
    expect(points.some((p) => p.isDifference && p.devices.length === 0)).toBe(true);
    expect(points.some((p) => !p.isSystemLinked)).toBe(true);
    expect(points.some((p) => p.metric === 'water_outdoor')).toBe(true);
    expect(devices.some((d) => d.metric === 'hca' && d.factor !== '1')).toBe(true);
    expect(devices.some((d) => d.installedAt === null)).toBe(true);
    expect(devices.some((d) => d.replacementReason === 'DeviceReplacement' && d.deinstalledAt?.startsWith('2025'))).toBe(true);
    expect(devices.filter((d) => d.replacementReason === 'DeviceRemoval').map((d) => d.deinstalledAt)).toEqual(['2025-09-10', '2025-08-31']);
    expect(points.some((p) => p.devices.length && ds.activeDevice(p) === null)).toBe(true);
    expect(devices.some((d) => d.startKind === 'assumed_zero' && d.metric === 'hca')).toBe(true);

    const origins = new Set<string>();
    const statuses = new Set<string>();
    const methods = new Set<string>();
    let dataGap = 0;
    let syntheticExpired = 0;
    for (const p of points) {
      const c = ds.consumption(p, miOf('2025-01-01'), miOf('2025-12-31'));
      if (c.dataGap && c.segments.length) dataGap++;
      for (const s of c.segments) {
        origins.add(s.baselineOrigin);
        statuses.add(s.status);
        for (const r of s.readings) {
          statuses.add(r.status);
          if (r.substitutionMethod) methods.add(`${p.metric}:${r.substitutionMethod}`);
          if (r.status === 'calibration_expired' && r.isSynthetic && r.substitutionMethod === null) syntheticExpired++;
        }
      }
    }
    expect([...origins].sort()).toEqual([...BASELINE_ORIGINS].sort());
    expect([...statuses].sort()).toEqual(['calculated', 'calibration_expired', 'measured', 'missing']);
    expect(methods).toContain('heat:degree_day_weighted');
    expect(methods).toContain('hca:degree_day_weighted');
    expect(methods).toContain('water_cold:linear_interpolation');
    expect(dataGap).toBeGreaterThan(0);
    expect(syntheticExpired).toBeGreaterThan(0);
  });

  it('month-end values never decrease and match valueAt', () => {
    const ds = generateDataset({});
    for (const p of allPoints(ds).slice(0, 80)) {
      for (const d of p.devices) {
        const vals = ds.monthValues(d, '2024-01-01', '2026-12-31');
        let last = -Infinity;
        for (const v of vals) {
          if (v.status === 'missing') {
            expect(v.milli).toBe(0);
            continue;
          }
          expect(v.milli).toBe(ds.valueAt(d, v.at));
          expect(v.milli).toBeGreaterThanOrEqual(last);
          last = v.milli;
        }
      }
    }
  });

  it('several Properties have several addresses; one Property has no units and only a main water meter', () => {
    const ds = generateDataset({});
    const multi = ds
      .properties()
      .filter((p) => p.addresses.length > 1)
      .map((p) => p.name);
    expect(multi).toEqual(['Musterstraße 1-5', 'Lindenhof', 'Gewerbehof Kanalstraße 2-4']);
    const lindenhof = ds.properties().find((p) => p.name === 'Lindenhof')!;
    const used = new Set(Array.from({ length: lindenhof.unitEnd - lindenhof.unitStart }, (_, i) => ds.unitByIndex(lindenhof.unitStart + i)!.addressIdx));
    expect(used).toEqual(new Set([0, 1]));
    const empty = ds.properties().filter((p) => p.unitEnd === p.unitStart);
    expect(empty.map((p) => [p.name, p.unitCountUnknown, ds.tenantId(p.tenantIdx)])).toEqual([['Gewerbehof Kanalstraße 2-4', false, ds.tenants()[1]!.id]]);
    const meters = ds.pointsOfProperty(empty[0]!);
    expect(meters.map((p) => [p.metric, p.localization, p.allocations.length])).toEqual([['water_cold', 'Hauptwasserzähler Hausanschluss', 0]]);
    expect(ds.point(ds.pointId(meters[0]!))).toEqual(meters[0]);
    // Unit lookups never land on the empty Property, also with other sizes.
    for (const units of [22, 60, 450]) {
      const d = generateDataset({ units });
      expect(d.properties().at(-1)!.unitEnd - d.properties().at(-1)!.unitStart).toBe(0);
      expect(d.unitByIndex(units - 1)!.propertyIdx).toBe(d.properties().length - 2);
    }
  });

  it('the review Property holds the plausibility cases; every other unit keeps its index and values', () => {
    const ds = generateDataset({});
    const before = generateDataset({ units: 59 }); // below REVIEW_MIN_UNITS: no review Property
    expect(before.properties().map((p) => p.name)).not.toContain('Lessingstraße 7');
    const review = ds.properties().find((p) => p.name === 'Lessingstraße 7')!;
    expect([review.unitStart, review.unitEnd, review.tenantIdx]).toEqual([52, 60, 0]);
    for (let i = 0; i < review.unitStart; i++) {
      expect(ds.unitByIndex(i)).toEqual(before.unitByIndex(i));
      expect(ds.pointsOfUnit(ds.unitByIndex(i)!)).toEqual(before.pointsOfUnit(before.unitByIndex(i)!));
    }
    const byName = (name: string) => ds.pointsOfUnit(Array.from({ length: 8 }, (_, i) => ds.unitByIndex(review.unitStart + i)!).find((u) => u.name === name)!);
    const year = (pt: PointRec, y: number) =>
      Number(ds.consumption(pt, miOf(`${y}-01-31`), miOf(`${y}-12-31`)).segments.reduce((s, g) => s + Number(g.billable), 0));
    const heat = (name: string) => byName(name).find((x) => x.point.metric === 'heat')!.point;
    const change = year(heat('WE 02'), 2025) / year(heat('WE 02'), 2024);
    console.log(`Lessingstraße 7 WE 02 heat 2025/2024: ${change.toFixed(3)}`);
    expect(change).toBeGreaterThan(1.3);
    for (const we of ['WE 01', 'WE 03', 'WE 06']) expect(Math.abs(year(heat(we), 2025) / year(heat(we), 2024) - 1)).toBeLessThan(0.2);
    expect(year(byName('WE 03').find((x) => x.point.metric === 'water_warm')!.point, 2025)).toBe(0);
    expect(year(heat('WE 04'), 2025) / year(heat('WE 01'), 2025)).toBeGreaterThan(3);
    expect(heat('WE 05').devices[0]!.installedAt).toBe('2019-03-01');
    expect(ds.consumption(heat('WE 08'), miOf('2024-01-31'), miOf('2024-12-31')).dataGap).toBe(true);
    const cold = (name: string) =>
      ds.consumption(byName(name).find((x) => x.point.metric === 'water_cold')!.point, miOf('2025-01-31'), miOf('2025-12-31')).segments[0]!.status;
    expect(['WE 01', 'WE 02', 'WE 03', 'WE 04'].map(cold)).toEqual(['calculated', 'calculated', 'calculated', 'measured']);
    expect(
      ds
        .pointsOfProperty(review)
        .filter((p) => p.allocations.length === 0)
        .map((p) => p.localization),
    ).toEqual(['Hauptwasserzähler Hausanschluss', 'Wärmemengenzähler Heizzentrale']);
    for (const p of ds.pointsOfProperty(review)) expect(ds.point(ds.pointId(p))).toEqual(p);
  });

  it('a 50/50 shared point: the primary unit is the one with the smaller id', () => {
    const ds = generateDataset({});
    const tie = allPoints(ds).filter((p) => p.allocations.length === 2 && p.allocations.every((a) => a.share === '0.5'));
    expect(tie).toHaveLength(1);
    const names = tie[0]!.allocations.map((a) => ds.unitByIndex(a.unitIdx)!.name);
    expect(names).toEqual(['Treppenhaus', 'Technikraum']);
    const ids = tie[0]!.allocations.map((a) => ds.unitId(a.unitIdx));
    const smaller = ids[0]! < ids[1]! ? 0 : 1;
    expect(ds.primaryUnit(tie[0]!)).toBe(tie[0]!.allocations[smaller]!.unitIdx);
    // Same result whichever order the allocations are listed in.
    expect(ds.primaryUnit({ ...tie[0]!, allocations: [...tie[0]!.allocations].reverse() })).toBe(tie[0]!.allocations[smaller]!.unitIdx);
  });

  it('a single unit works; large sets spread units over Properties of at most 200', () => {
    const one = generateDataset({ units: 1 });
    expect(one.unitCount).toBe(1);
    expect(one.properties()).toHaveLength(1);
    expect(one.pointsOfUnit(one.unitByIndex(0)!).length).toBeGreaterThan(0);
    const big = generateDataset({ units: 5_000 });
    const sizes = big.properties().map((p) => p.unitEnd - p.unitStart);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(200);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(5_000);
    expect(sizes.filter((n) => n === 0)).toHaveLength(1);
  });

  it('50,000 units: generation time and memory (printed)', () => {
    globalThis.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const ds = generateDataset({ units: 50_000 });
    const tGen = performance.now() - t0;
    let points = 0;
    for (let i = 0; i < ds.unitCount; i += 1) points += ds.pointsOfUnit(ds.unitByIndex(i)!).length;
    const tWalk = performance.now() - t0 - tGen;
    const last = ds.unitByIndex(49_999)!;
    const c = ds.consumption(ds.pointsOfUnit(last)[0]!.point, miOf('2025-01-01'), miOf('2025-12-31'));
    const heapMb = (process.memoryUsage().heapUsed - heap0) / 1e6;
    console.log(
      `50,000 units: generate ${tGen.toFixed(1)} ms, walk all units and ${points} points ${tWalk.toFixed(0)} ms, heap delta ${heapMb.toFixed(1)} MB, ${ds.properties().length} Properties`,
    );
    expect(points).toBeGreaterThan(150_000);
    // Generous bound (measured ≈ 14 MB): a data set that materialised its units would exceed it.
    expect(heapMb).toBeLessThan(150);
    expect(c.segments.length).toBeGreaterThan(0);
  });
});
