// A small checker for API answers: required fields present with the right JSON type,
// unknown fields left alone, unknown enum values kept and reported (versioning rules
// 4 and 7), spec defaults filled in. It mutates the parsed JSON in place (defaults only)
// and never copies it, so big consumption answers cost one walk.
import type { UnknownValue } from './contracts.js';
import { t } from './texts.js';

export type Schema =
  | { t: 'string' | 'number' | 'integer' | 'boolean' | 'date' }
  | { t: 'enum'; values: readonly string[] }
  | { t: 'array'; of: Schema }
  | { t: 'object'; name: string; fields: Record<string, Field> }
  | { t: 'nullable'; of: Schema }
  | { t: 'either'; a: Schema; b: Schema };

/** `required` fields must be present; `optional` may be absent; `default` fills in when absent. */
export type Field = { s: Schema; mode: 'required' | 'optional' } | { s: Schema; mode: 'default'; value: unknown };

export const str: Schema = { t: 'string' };
export const num: Schema = { t: 'number' };
export const int: Schema = { t: 'integer' };
export const bool: Schema = { t: 'boolean' };
/** yyyy-MM-dd: rc.3 made MeterReading.at a date; a date-time here means an old contract. */
export const date: Schema = { t: 'date' };
export const nul = (of: Schema): Schema => ({ t: 'nullable', of });
export const arr = (of: Schema): Schema => ({ t: 'array', of });
export const oneOf = (values: readonly string[]): Schema => ({ t: 'enum', values });
export const either = (a: Schema, b: Schema): Schema => ({ t: 'either', a, b });
export const opt = (s: Schema): Field => ({ s, mode: 'optional' });
export const def = (s: Schema, value: unknown): Field => ({ s, mode: 'default', value });
/** A nullable field whose absence we read as null (the tolerant reading of "key present with null"). */
export const nullish = (s: Schema): Field => def(nul(s), null);
export function obj(name: string, fields: Record<string, Schema | Field>): Schema {
  const out: Record<string, Field> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = 'mode' in v ? v : { s: v, mode: 'required' };
  return { t: 'object', name, fields: out };
}

/** A field that breaks the contract, with its path in the answer. */
export class SchemaViolation extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`);
  }
}

const ID_KEYS = ['id', 'measuring_point_id', 'device_id', 'usage_unit_id'] as const;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Checks `value` against `schema`; throws SchemaViolation at the first break. */
export function check(value: unknown, schema: Schema, onUnknown: (u: UnknownValue) => void, path = '$'): void {
  try {
    walk(value, schema, null, '', null, onUnknown);
  } catch (e) {
    if (!(e instanceof Break)) throw e;
    throw new SchemaViolation(path + e.steps.reverse().join(''), e.problem);
  }
}

/**
 * A break found deep in an answer. Its path is made only as the break unwinds (each level adds
 * its step): made eagerly for every value, the paths were most of the garbage a check left.
 */
class Break {
  readonly steps: string[] = [];
  constructor(readonly problem: string) {}
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** An object schema's fields as a list, made once per schema rather than at every object it checks. */
const FIELDS = new WeakMap<Schema, [string, Field][]>();
function fieldsOf(s: Extract<Schema, { t: 'object' }>): [string, Field][] {
  let list = FIELDS.get(s);
  if (!list) FIELDS.set(s, (list = Object.entries(s.fields)));
  return list;
}

/** `owner`, `key`: the enclosing object's type and this value's field in it (null: the top), for unknown-value reports. */
function walk(v: unknown, s: Schema, owner: string | null, key: string, id: string | null, onUnknown: (u: UnknownValue) => void): void {
  const bad = (want: string) => new Break(t.shouldBe({ want, got: typeName(v) }));
  switch (s.t) {
    case 'string':
      if (typeof v !== 'string') throw bad(t.aString);
      return;
    case 'date':
      if (typeof v !== 'string') throw bad(t.aDate);
      if (!DATE_RE.test(v)) throw new Break(t.badDate({ value: v.slice(0, 40) }));
      return;
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(t.aNumber);
      return;
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) throw bad(t.anInteger);
      return;
    case 'boolean':
      if (typeof v !== 'boolean') throw bad(t.aBoolean);
      return;
    case 'enum':
      if (typeof v !== 'string') throw bad(t.aString);
      if (!s.values.includes(v)) onUnknown({ field: owner === null ? '' : `${owner}.${key}`, value: v, id });
      return;
    case 'nullable':
      if (v !== null) walk(v, s.of, owner, key, id, onUnknown);
      return;
    case 'either':
      try {
        walk(v, s.a, owner, key, id, onUnknown);
      } catch (e) {
        if (!(e instanceof Break)) throw e;
        walk(v, s.b, owner, key, id, onUnknown);
      }
      return;
    case 'array':
      if (!Array.isArray(v)) throw bad(t.anArray);
      for (let i = 0; i < v.length; i++) {
        try {
          walk(v[i], s.of, owner, key, id, onUnknown);
        } catch (e) {
          if (e instanceof Break) e.steps.push(`[${i}]`);
          throw e;
        }
      }
      return;
    case 'object': {
      if (typeName(v) !== 'object') throw bad(t.anObject({ name: s.name }));
      const o = v as Record<string, unknown>;
      let here = id;
      for (const k of ID_KEYS) {
        if (typeof o[k] === 'string') {
          here = o[k] as string;
          break;
        }
      }
      for (const [field, f] of fieldsOf(s)) {
        if (!(field in o) || o[field] === undefined) {
          if (f.mode === 'required') throw Object.assign(new Break(t.isMissing), { steps: [`.${field}`] });
          if (f.mode === 'default') o[field] = f.value;
          continue;
        }
        try {
          walk(o[field], f.s, s.name, field, here, onUnknown);
        } catch (e) {
          if (e instanceof Break) e.steps.push(`.${field}`);
          throw e;
        }
      }
      return;
    }
  }
}

/**
 * No answer of the contract nests deeper than a handful of levels. Deeper (an unknown
 * field nested 20,000 times) is refused before the schema check (client.ts): JSON.stringify
 * and the structured clone between threads recurse, and would crash the journal with a
 * stack overflow.
 */
export const MAX_DEPTH = 64;

/** Whether `json` nests deeper than MAX_DEPTH; iterative, so the check itself cannot overflow. */
export function tooDeep(json: unknown): boolean {
  // two stacks side by side, and no array of values per object: this runs over every answer
  const values: unknown[] = [json];
  const depths: number[] = [0];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) return true;
    if (Array.isArray(v)) {
      for (const child of v as unknown[]) if (child !== null && typeof child === 'object') (values.push(child), depths.push(depth + 1));
    } else {
      for (const k of Object.keys(v)) {
        const child = (v as Record<string, unknown>)[k];
        if (child !== null && typeof child === 'object') (values.push(child), depths.push(depth + 1));
      }
    }
  }
  return false;
}
