// What the journal reads back, checked before it is used: a journal is a file on disk
// that a full disk, a crash of another tool or a hand edit can damage, and its answers
// end up on a bill. meta.json is checked with valibot (the schema library for the files
// meterdata reads back); a Property's saved answers pass the same contract check as a
// fresh answer from the service (src/api/schemas.ts), so a damaged one is fetched again
// instead of billed.
import * as v from 'valibot';
import { MAX_DEPTH, SchemaViolation, arr, check, obj, tooDeep } from '../../api/schema.js';
import { measuringPoint, pointConsumption, property, unitConsumption, usageUnit } from '../../api/schemas.js';
import type { Property } from '../../api/types.js';
import { runText as t } from '../texts-run.js';

/** Why a journal file cannot be used, as the reader reads it. */
export class JournalDamage extends Error {}

const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const Meta = v.object({
  version: v.literal(2),
  identity: v.record(v.string(), v.unknown()),
  startedAt: v.pipe(v.string(), v.regex(ISO_SECONDS)),
  tenantId: v.string(),
  tenantName: v.string(),
  propertyScope: v.union([v.literal('all'), v.array(v.string())]),
  // Checked against the contract below; kept whole (every field of the answer).
  properties: v.nullable(v.array(v.unknown())),
});

export type JournalMeta = Omit<v.InferOutput<typeof Meta>, 'properties' | 'propertyScope'> & { propertyScope: 'all' | string[]; properties: Property[] | null };

const answersSchema = obj('PropertyAnswers', {
  property,
  units: arr(obj('UnitAnswers', { unit: usageUnit, consumption: unitConsumption })),
  points: arr(measuringPoint),
  plantPoints: arr(obj('PlantPointAnswers', { point: measuringPoint, consumption: pointConsumption })),
});

function parse(text: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new JournalDamage(t.notJson);
  }
  // Kept whole and written again (meta.json) or compared as JSON: deeper would overflow the stack.
  if (tooDeep(json)) throw new JournalDamage(t.tooDeep({ max: MAX_DEPTH }));
  return json;
}

function contract(json: unknown, schema: Parameters<typeof check>[1], path: string): void {
  try {
    check(json, schema, () => undefined, path);
  } catch (e) {
    if (e instanceof SchemaViolation) throw new JournalDamage(t.badField({ field: e.path.replace(/^\$\.?/, '') || '$' }));
    throw e;
  }
}

/** meta.json's content, or 'other-version' for a journal of another format; throws JournalDamage naming the first field that is wrong. */
export function readMeta(text: string): JournalMeta | 'other-version' {
  const json = parse(text);
  if (json !== null && typeof json === 'object' && 'version' in json && json.version !== 2) return 'other-version';
  const r = v.safeParse(Meta, json);
  if (!r.success) throw new JournalDamage(t.badField({ field: v.getDotPath(r.issues[0]) ?? '$' }));
  r.output.properties?.forEach((p, i) => contract(p, property, `properties.${i}`));
  return r.output as JournalMeta;
}

/** A Property's saved answers; throws JournalDamage when they do not fit the contract or belong to another Property. */
export function readAnswers<T>(text: string, expected: Pick<Property, 'id'>): T {
  const json = parse(text);
  contract(json, answersSchema, '$');
  if ((json as { property: Property }).property.id !== expected.id) throw new JournalDamage(t.otherProperty);
  return json as T;
}

// pid 0 and -1 are no process: kill(0|-1, 0) signals a group and succeeds, which read as a holder alive for ever.
const LockHolder = v.object({
  pid: v.pipe(v.number(), v.integer(), v.minValue(1)),
  host: v.string(),
  started: v.optional(v.number()),
  owner: v.optional(v.string()),
  /** Where its pid means it (core/pid.ts PID_SPACE); none in the records of earlier versions. */
  ns: v.optional(v.string()),
});

/** Who holds a lock file; null when the file is not a holder record (damaged, or another tool's). */
export function readLockHolder(text: string): v.InferOutput<typeof LockHolder> | null {
  try {
    const r = v.safeParse(LockHolder, JSON.parse(text));
    return r.success ? r.output : null;
  } catch {
    return null;
  }
}
