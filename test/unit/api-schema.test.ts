import { describe, expect, it } from 'vitest';
import type { UnknownValue } from '../../src/api/contracts.js';
import { arr, check, date, either, int, MAX_DEPTH, nullish, num, obj, oneOf, opt, SchemaViolation, str, tooDeep } from '../../src/api/schema.js';

const reading = obj('MeterReading', { at: date, value: num, kind: oneOf(['actual', 'estimated']) });
const segment = obj('Segment', { measuring_point_id: str, readings: arr(reading), factor: either(num, str), note: nullish(str) });
const answer = obj('UnitConsumption', { usage_unit_id: str, segments: arr(segment), count: opt(int) });

const good = () => ({
  usage_unit_id: 'u1',
  segments: [
    { measuring_point_id: 'p1', readings: [{ at: '2025-01-31', value: 1, kind: 'actual' }], factor: 1 },
    {
      measuring_point_id: 'p2',
      readings: [
        { at: '2025-01-31', value: 2, kind: 'actual' },
        { at: '2025-02-28', value: 3, kind: 'estimated' },
      ],
      factor: '1.5',
      note: null,
    },
  ],
});

function violation(value: unknown): SchemaViolation {
  try {
    check(value, answer, () => undefined);
  } catch (e) {
    if (e instanceof SchemaViolation) return e;
    throw e;
  }
  throw new Error('no violation');
}

describe("the API answers' schema check", () => {
  it('names the path of a break deep in arrays and objects, in the words the client shows', () => {
    const a = good();
    (a.segments[1]!.readings[1] as { value: unknown }).value = 'x';
    const e = violation(a);
    expect(e.path).toBe('$.segments[1].readings[1].value');
    expect(e.problem).toBe('should be a number but is string');
    expect(e.message).toBe('$.segments[1].readings[1].value should be a number but is string');
  });

  it('names a missing field, a bad date and a break in both branches of an either by their paths', () => {
    const missing = good();
    delete (missing.segments[0]!.readings[0] as { at?: string }).at;
    expect(violation(missing).message).toBe('$.segments[0].readings[0].at is missing');
    const badDate = good();
    badDate.segments[1]!.readings[0]!.at = '2025-01-31T00:00:00Z';
    expect(violation(badDate).message).toBe('$.segments[1].readings[0].at should be a date (yyyy-MM-dd) but is "2025-01-31T00:00:00Z"');
    const neither = good();
    (neither.segments[0] as { factor: unknown }).factor = true;
    expect(violation(neither).message).toBe('$.segments[0].factor should be a string but is boolean');
    expect(violation([]).message).toBe('$ should be an object (UnitConsumption) but is array');
  });

  it('reports an unknown value with its type and field and the nearest id, fills defaults, and leaves a good answer alone', () => {
    const a = good();
    a.segments[1]!.readings[1]!.kind = 'guessed';
    const unknown: UnknownValue[] = [];
    check(a, answer, (u) => unknown.push(u));
    expect(unknown).toEqual([{ field: 'MeterReading.kind', value: 'guessed', id: 'p2' }]);
    expect(a.segments[0]).toHaveProperty('note', null);
    expect(a).not.toHaveProperty('count');
  });

  it('refuses nesting deeper than the contract has, in arrays and in objects, and not one level less', () => {
    const nest = (depth: number, wrap: (x: unknown) => unknown) => {
      let v: unknown = 1;
      for (let i = 0; i < depth; i++) v = wrap(v);
      return v;
    };
    for (const wrap of [(x: unknown) => [x], (x: unknown) => ({ a: 1, b: x })]) {
      expect(tooDeep(nest(MAX_DEPTH, wrap))).toBe(false);
      expect(tooDeep(nest(MAX_DEPTH + 1, wrap))).toBe(true);
    }
    expect(tooDeep(good())).toBe(false);
  });
});
