// Unknown enum values in the parts of the answers billing never reads: the Property's
// measuring-point list (metric, unit, the active device's replacement_reason, points a
// --metric filter skipped) and the unit resources (their point summaries). They become
// UNKNOWN_ENUM_VALUE review flags, once per field, value and object, and never twice
// for what billing already flagged. Derived from the stored answers, not from the API
// client's onUnknownValue callback: a resumed run reads them from the journal without a
// request, and must write the same review.csv as an uninterrupted one.
import type { UnknownValue } from '../../../api/contracts.js';
import { check } from '../../../api/schema.js';
import * as S from '../../../api/schemas.js';
import { makeFlag, type FlagScope } from '../../../billing/flags.js';
import type { Flag } from '../../../billing/types.js';
import type { PropertyAnswers } from '../../../api/walk.js';
import type { ExportStep } from '../../pipeline/index.js';

/** The contract's field name as billing's flags name it ("MeterReading.status" is a reading status). */
function shortField(field: string): string {
  if (field === 'MeterReading.status') return 'reading_status';
  return field.slice(field.lastIndexOf('.') + 1);
}

const keyOf = (field: string, value: string, id: string | null) => JSON.stringify([field, value, id]);

/** The object a flag is about: the device, else the point, else the unit. */
const flagObject = (f: Flag) => f.device_id ?? f.measuring_point_id ?? f.usage_unit_id;

export function unknownValueFlags(answers: PropertyAnswers, billed: readonly Flag[]): Flag[] {
  const seen = new Set(
    billed.filter((f) => f.code === 'UNKNOWN_ENUM_VALUE' && f.facts).map((f) => keyOf(f.facts!.field ?? '', f.facts!.value ?? '', flagObject(f))),
  );
  const out: Flag[] = [];
  const collect = (scopeOf: (u: UnknownValue) => FlagScope) => (u: UnknownValue) => {
    const field = shortField(u.field);
    const key = keyOf(field, u.value, u.id);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(makeFlag('UNKNOWN_ENUM_VALUE', scopeOf(u), { field, value: u.value }));
  };
  const property_id = answers.property.id;
  for (const { unit } of answers.units) {
    check(
      unit,
      S.usageUnit,
      collect((u) => ({ property_id, usage_unit_id: unit.id, measuring_point_id: u.id === unit.id ? null : u.id, device_id: null })),
    );
  }
  for (const p of answers.points) {
    check(
      p,
      S.measuringPoint,
      collect((u) => ({ property_id, usage_unit_id: p.usage_unit_id ?? null, measuring_point_id: p.id ?? null, device_id: u.id === p.id ? null : u.id })),
    );
  }
  return out;
}

export const unknownValuesStep: ExportStep = {
  findings: ({ answers, bill }) => ({ flags: unknownValueFlags(answers, bill.flags) }),
};
