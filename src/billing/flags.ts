// Building flags. A flag's ids say where it belongs: device_id for a segment finding,
// measuring_point_id for a point finding, usage_unit_id null for plant-room/main points.
import { BASELINE_ORIGINS, METRICS, METRIC_UNITS, READING_STATUSES, REPLACEMENT_REASONS, SUBSTITUTION_METHODS, UNIT_TYPES, isKnown } from '../api/types.js';
import { BILLING_SEVERITY, type CodeDeclaration, type Flag, type FlagCode, type Severity } from './types.js';

export interface FlagScope {
  property_id: string;
  usage_unit_id: string | null;
  measuring_point_id: string | null;
  device_id: string | null;
}

/**
 * Flags of the codes one part declares (billing's, a plausibility rule's, an export step's), with the
 * severity it declares: a code it does not declare, or one not listed in the catalogue, fails typecheck.
 */
export function flagMaker<const C extends CodeDeclaration>(codes: C) {
  return (code: keyof C & FlagCode, scope: FlagScope, facts?: Record<string, string>): Flag => {
    const flag: Flag = { code, severity: codes[code]!, ...scope };
    if (facts && Object.keys(facts).length > 0) flag.facts = facts;
    return flag;
  };
}

/** A flag of one of billing's own codes. */
export const makeFlag = flagMaker(BILLING_SEVERITY);

/**
 * The declarations as one table, in their order. A code two of them declare is a mistake in the
 * source (its severity would depend on the order): it throws, and the catalogue's test fails.
 */
export function joinCodes(declarations: readonly CodeDeclaration[]): Readonly<Record<string, Severity>> {
  const table: Record<string, Severity> = {};
  for (const d of declarations) {
    for (const [code, severity] of Object.entries(d)) {
      if (Object.hasOwn(table, code)) throw new Error(`finding code ${code} is declared twice`);
      table[code] = severity;
    }
  }
  return table;
}

/** The enum fields whose values the contract lists; everything else a server sends is "unknown". */
export const ENUM_FIELDS = {
  metric: METRICS,
  unit: METRIC_UNITS,
  unit_type: UNIT_TYPES,
  status: READING_STATUSES,
  reading_status: READING_STATUSES,
  baseline_origin: BASELINE_ORIGINS,
  replacement_reason: REPLACEMENT_REASONS,
  substitution_method: SUBSTITUTION_METHODS,
} as const satisfies Record<string, readonly string[]>;
export type EnumField = keyof typeof ENUM_FIELDS;

/**
 * UNKNOWN_ENUM_VALUE for a value outside the contract's list. null/undefined are absent
 * values, not unknown ones (optional and nullable fields are handled by their callers).
 */
export function enumFlag(field: EnumField, value: unknown, scope: FlagScope): Flag | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && isKnown(ENUM_FIELDS[field], value)) return null;
  return makeFlag('UNKNOWN_ENUM_VALUE', scope, { field, value: String(value) });
}

/** Sorted unique codes, for the review_flags column of a row. */
export function codesOf(flags: Iterable<Flag>): FlagCode[] {
  return [...new Set([...flags].map((f) => f.code))].sort();
}

/** Same finding reported twice (e.g. two readings with the same unknown status) is one flag. */
export function dedupeFlags(flags: Flag[]): Flag[] {
  const seen = new Set<string>();
  return flags.filter((f) => {
    const key = JSON.stringify([f.code, f.usage_unit_id, f.measuring_point_id, f.device_id, f.facts ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
