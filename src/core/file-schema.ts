// Files meterdata wrote and reads back (config.json, the stored sign-in) may have been cut
// off by a full disk or edited by hand. Each is checked against a valibot schema, and a
// failure becomes one phrase naming the field and what is wrong, in the run's language,
// for the caller's one-line error. Unknown extra fields are kept (looseObject): a newer
// meterdata may have written them, and a read-modify-write must not drop them.
import * as v from 'valibot';
import { terminalSafe } from './terminal-text.js';
import { fileTexts as t } from './texts.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/** `secret`: the file holds secrets (tokens, keys), so the value found is never quoted. */
export interface CheckOptions {
  secret?: boolean;
}

/** Parses JSON text and checks it; the top level must be an object. */
export function checkJson<S extends v.GenericSchema>(schema: S, text: string, opts: CheckOptions = {}): Checked<v.InferOutput<S>> {
  let data: unknown;
  // Parsing copes with any depth, but writing it back (JSON.stringify) overflows the stack
  // and the extra fields this file may keep are written back: refused here, in one line.
  if (deeperThan(text, MAX_DEPTH)) return { ok: false, problem: t.tooDeep({ max: MAX_DEPTH }) };
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, problem: text.trim() ? t.notJson : t.empty };
  }
  return checkValue(schema, data, opts);
}

const MAX_DEPTH = 64;

/** Whether the JSON text nests objects and arrays deeper than `max` (brackets inside strings do not count). */
function deeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Checks a value already parsed (one profile of config.json). */
export function checkValue<S extends v.GenericSchema>(schema: S, data: unknown, opts: CheckOptions = {}): Checked<v.InferOutput<S>> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, problem: t.notAnObject };
  const result = v.safeParse(schema, data, { abortEarly: true });
  // The value as read, not valibot's copy: that one reorders the keys, and a record written
  // back unchanged must stay byte for byte what it was (the schemas transform nothing).
  if (result.success) return { ok: true, value: data as v.InferOutput<S> };
  return { ok: false, problem: describeIssue(result.issues[0], opts) };
}

function describeIssue(issue: v.BaseIssue<unknown>, opts: CheckOptions): string {
  const field = v.getDotPath(issue) ?? '';
  // A required key that is absent: valibot names the key as what it expected.
  if (issue.received === 'undefined' && issue.kind === 'schema' && /object$/.test(issue.type)) return t.missing({ field });
  const expected = expectedWords(issue);
  if (opts.secret) return t.wrongSecret({ field, expected });
  const found = issue.received.length > 40 ? `${issue.received.slice(0, 39)}…` : issue.received;
  return t.wrong({ field, expected, found: terminalSafe(found) });
}

function expectedWords(issue: v.BaseIssue<unknown>): string {
  switch (issue.type) {
    case 'string':
      return t.text;
    case 'non_empty':
    case 'min_length':
      return t.textNotEmpty;
    case 'boolean':
      return t.yesNo;
    case 'number':
      return t.number;
    case 'integer':
    case 'safe_integer':
      return t.wholeNumber;
    case 'array':
      return t.list;
    case 'object':
    case 'loose_object':
    case 'record':
      return t.object;
    case 'iso_timestamp':
      return t.dateTime;
    case 'picklist':
    case 'literal':
    case 'union':
      return t.oneOf({
        values: (issue.expected ?? '')
          .replace(/^\((.*)\)$/, '$1')
          .replace(/Array/g, t.list)
          .replace(/ \| /g, ', '),
      });
    default:
      return t.valid;
  }
}
