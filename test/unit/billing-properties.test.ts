// Property-based checks of the billing rules with fast-check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeviceSegment, MeasuringPointConsumption } from '../../src/api/types.js';
import { BILLABLE_STATUSES, billProperty, dec, formatDecimal, type PropertyInput } from '../../src/billing/index.js';
import { aPlantPoint, aPointConsumption, aPropertyInput, aReading, aSegment, aUnitEntry, sharedCopies } from '../helpers/builders.js';

const amount = fc.integer({ min: 0, max: 50_000_000 }).map((n) => n / 1000);
const status = fc.constantFrom('measured', 'substituted', 'calculated', 'missing', 'calibration_expired', 'frozen');
const metric = fc.constantFrom('heat', 'hca', 'water_cold', 'water_warm', 'water_outdoor', 'steam');
const total = (out: ReturnType<typeof billProperty>) => out.billing.reduce((s, r) => s.plus(r.billable_value), dec(0));

const segmentArb = fc
  .record({
    billable: amount,
    share: fc.constantFrom(1, 0.5, 0.25),
    weighted: fc.boolean(),
    status,
    month: fc.integer({ min: 1, max: 12 }),
    synthetic: fc.boolean(),
  })
  .map((s) =>
    aSegment({
      installed_at: `2025-${String(s.month).padStart(2, '0')}-01`,
      readings: [aReading({ at: '2025-12-31', is_synthetic: s.synthetic }), aReading({ at: '2025-06-30' }), aReading({ at: '2025-03-31' })],
      period_consumption: { billable_value: s.billable, status: s.status, weighted_billable_value: s.weighted ? s.billable * s.share : undefined },
    }),
  );

/** Segments as one device after another (each removed the day the next was installed), as the contract has them. */
const oneAfterAnother = (segments: DeviceSegment[]): DeviceSegment[] => {
  const order = segments.map((_, i) => i).sort((a, b) => segments[a]!.installed_at!.localeCompare(segments[b]!.installed_at!));
  const next = (i: number) => segments[order[order.indexOf(i) + 1] ?? -1]?.installed_at ?? null;
  // each read only while installed, as the contract has it (READING_OUTSIDE_WINDOW otherwise)
  const within = (s: DeviceSegment, end: string | null) => s.readings.filter((r) => r.at >= s.installed_at! && (end === null || r.at <= end));
  return segments.map((s, i) => ({ ...s, deinstalled_at: next(i), readings: within(s, next(i)) }));
};
// Each device installed on its own day: two installed on one day make two one-day windows, the same window twice (SEGMENTS_OVERLAP).
const chainArb = (min: number, max: number) =>
  fc.uniqueArray(segmentArb, { minLength: min, maxLength: max, selector: (s) => s.installed_at }).map(oneAfterAnother);

const pointArb = fc
  .record({ metric, share: fc.constantFrom(1, 0.5, 1 / 3), linked: fc.boolean(), segments: chainArb(0, 3) })
  .map((p) => aPointConsumption({ metric: p.metric, unit_share: p.share, is_system_linked: p.linked, segments: p.segments }));

const propertyArb: fc.Arbitrary<PropertyInput> = fc
  .record({
    units: fc.array(fc.record({ name: fc.constantFrom('WE 01', 'WE 02', 'Laden', 'WE 01'), points: fc.array(pointArb, { minLength: 1, maxLength: 4 }) }), {
      minLength: 1,
      maxLength: 4,
    }),
    shared: fc.array(fc.record({ billable: amount, weights: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 2, maxLength: 3 }) }), { maxLength: 2 }),
    plant: fc.array(fc.record({ metric, billable: amount }), { maxLength: 2 }),
  })
  .map(({ units, shared, plant }) => {
    const entries = units.map((u) => aUnitEntry(u.name, u.points));
    for (const s of shared) {
      const w = s.weights.reduce((a, b) => a + b, 0);
      sharedCopies(
        s.billable,
        s.weights.map((x) => x / w),
      ).forEach((copy, i) => entries[i % entries.length]!.consumption.measuring_points.push(copy));
    }
    const plantPoints = plant.map((p) =>
      aPlantPoint({
        consumption: { metric: p.metric, segments: [aSegment({ period_consumption: { billable_value: p.billable, weighted_billable_value: undefined } })] },
      }),
    );
    return aPropertyInput({ units: entries, plantPoints });
  });

/** Deterministic Fisher-Yates from a seed (mulberry32). */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  let a = seed >>> 0;
  const rnd = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function shuffleInput(input: PropertyInput, seed: number): PropertyInput {
  const copy = structuredClone(input);
  const segs = (s: DeviceSegment[]) => shuffle(s, seed + 3).map((x) => ({ ...x, readings: shuffle(x.readings, seed + 4) }));
  const points = (ps: MeasuringPointConsumption[]) => shuffle(ps, seed + 2).map((p) => ({ ...p, segments: segs(p.segments) }));
  return {
    ...copy,
    units: shuffle(copy.units, seed).map((u) => ({ ...u, consumption: { ...u.consumption, measuring_points: points(u.consumption.measuring_points) } })),
    plantPoints: shuffle(copy.plantPoints, seed + 1).map((p) => ({ ...p, consumption: { ...p.consumption, segments: segs(p.consumption.segments) } })),
  };
}

describe('billing properties', () => {
  it('a shared point is split by the shares: the units together bill the point once, none in full', () => {
    fc.assert(
      fc.property(amount, fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }), fc.boolean(), (billable, weights, dropWeighted) => {
        const w = weights.reduce((a, b) => a + b, 0);
        const copies = sharedCopies(
          billable,
          weights.map((x) => x / w),
        );
        if (dropWeighted) copies.forEach((c) => delete c.segments[0]!.period_consumption.weighted_billable_value);
        const out = billProperty(aPropertyInput({ units: copies.map((c, i) => aUnitEntry(`WE ${i}`, [c])) }));
        expect(
          total(out)
            .minus(billable)
            .abs()
            .lessThanOrEqualTo(1e-9 * Math.max(1, billable)),
        ).toBe(true);
        expect(out.flags.some((f) => f.code === 'SHARE_SUM_MISMATCH')).toBe(false);
        if (weights.length > 1 && billable > 0) {
          for (const row of out.billing) expect(dec(row.billable_value).lessThan(billable)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("each unit bills a shared point's billable value times its own share, within the rounding of weighted values", () => {
    fc.assert(
      fc.property(amount, fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }), fc.boolean(), (billable, weights, dropWeighted) => {
        const w = weights.reduce((a, b) => a + b, 0);
        const copies = sharedCopies(
          billable,
          weights.map((x) => x / w),
        );
        for (const c of copies) {
          const pc = c.segments[0]!.period_consumption;
          // As the service sends it: billable × share rounded to 3 decimals, or not at all.
          if (dropWeighted) delete pc.weighted_billable_value;
          else pc.weighted_billable_value = dec(billable).times(c.unit_share!).toDecimalPlaces(3).toNumber();
        }
        const out = billProperty(aPropertyInput({ units: copies.map((c, i) => aUnitEntry(`WE ${i}`, [c])) }));
        expect(out.billing).toHaveLength(copies.length);
        for (const row of out.billing) {
          const share = out.segments.find((s) => s.usage_unit_id === row.usage_unit_id)!.unit_share!;
          const exact = dec(billable).times(share);
          expect(
            dec(row.billable_value).minus(exact).abs().lessThanOrEqualTo('0.0005'),
            `${row.usage_unit_name}: ${row.billable_value} vs ${exact.toString()}`,
          ).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('segments with a non-billable status never contribute, whatever value they carry', () => {
    fc.assert(
      fc.property(chainArb(1, 5), amount, (segments, other) => {
        const bill = (segs: DeviceSegment[]) =>
          billProperty(aPropertyInput({ units: [aUnitEntry('WE 01', [aPointConsumption({ measuring_point_id: 'p', segments: segs })])] }));
        const billable = segments.filter((s) => BILLABLE_STATUSES.includes(s.period_consumption.status));
        const changed = segments.map((s) =>
          BILLABLE_STATUSES.includes(s.period_consumption.status)
            ? s
            : { ...s, period_consumption: { ...s.period_consumption, billable_value: other, weighted_billable_value: other } },
        );
        const expected = total(bill(segments));
        expect(total(bill(billable)).eq(expected)).toBe(true);
        expect(total(bill(changed)).eq(expected)).toBe(true);
        const notBilled = bill(segments).segments.filter((r) => r.status !== null && !BILLABLE_STATUSES.includes(r.status));
        expect(notBilled.every((r) => r.billed_value === '0')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('the order of units, points, segments and readings changes nothing in the output', () => {
    fc.assert(
      fc.property(propertyArb, fc.integer(), (input, seed) => {
        expect(billProperty(shuffleInput(input, seed))).toEqual(billProperty(input));
      }),
      // Whole properties shrink slowly (deep diffs of big objects): report the first counterexample as is.
      { numRuns: 100, endOnFailure: true },
    );
  });

  it('each billing row is exactly its own metric: water_outdoor never merges into water; flags sorted and unique', () => {
    fc.assert(
      fc.property(propertyArb, (input) => {
        const out = billProperty(input);
        for (const row of out.billing) {
          const own = out.segments.filter((s) => s.usage_unit_id === row.usage_unit_id && s.metric === row.metric && s.unit === row.unit);
          expect(dec(row.billable_value).eq(own.reduce((a, s) => a.plus(s.billed_value), dec(0)))).toBe(true);
        }
        expect(new Set(out.billing.map((r) => `${r.usage_unit_id}|${r.metric}|${r.unit}`)).size).toBe(out.billing.length);
        for (const row of [...out.billing, ...out.segments, ...out.plant]) {
          expect(row.review_flags).toEqual([...new Set(row.review_flags)].sort());
        }
        expect(new Set(out.readings.map((r) => `${r.measuring_point_id}|${r.device_id}|${r.at}`)).size).toBe(out.readings.length);
      }),
      { numRuns: 100, endOnFailure: true },
    );
  });

  it('formatDecimal never emits exponent form and keeps the value', () => {
    const plain = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
        const s = formatDecimal(v);
        expect(s).toMatch(plain);
        expect(Number(s)).toBe(v === 0 ? 0 : v);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: -40, max: 40 }), (m, e) => {
        const s = formatDecimal(`${m}e${e}`);
        expect(s).toMatch(plain);
        expect(dec(s).eq(dec(`${m}e${e}`))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
