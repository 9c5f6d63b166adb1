// --unit-refs FILE: the accountant's own ERP reference per unit (the contract's external_ref
// is always null and cannot be written). A CSV with the columns usage_unit_id and erp_ref,
// comma or semicolon, BOM tolerated, read and checked with the other flags, before any
// request: a bad line is one error naming it (exit 2). billing.csv and the Overview carry
// erp_ref; units without one, and lines for units not in the export, are findings.
import path from 'node:path';
import { UUID } from '../../../api/types.js';
import { flagMaker } from '../../../billing/flags.js';
import type { CodeDeclaration, Flag } from '../../../billing/types.js';
import { readBounded } from '../../../core/bounded-read.js';
import { UsageError } from '../../../core/errors.js';
import { hasControlCharacter } from '../../../core/terminal-text.js';
import { inLanguage } from '../../../i18n/index.js';
import { parseCsvRecords } from '../../../plausibility/index.js';
import { type Template, columnHeaders } from '../../output/index.js';
import { unitRefTexts as t } from './texts.js';

/** The codes of the ERP references' findings and their severity (steps/index.ts lists them). */
export const unitRefCodes = { UNIT_REF_MISSING: 'review', UNIT_REF_SHARED: 'review', UNIT_REF_UNKNOWN: 'info' } as const satisfies CodeDeclaration;
const makeFlag = flagMaker(unitRefCodes);

/** Plain data (it crosses into the export's worker thread with ExportArgs). */
export interface UnitRefs {
  /** As given on the command line, for messages and the About sheet. */
  file: string;
  /** [usage_unit_id (lower case), erp_ref, line], in file order. */
  entries: [string, string, number][];
}

const MAX_BYTES = 64 << 20;
const MAX_LINES = 1_000_000;
const MAX_REF = 100;
const CODE = 'EXPORT_UNIT_REFS_INVALID';
/** Zero-width characters and a stray byte order mark: invisible in a sheet, yet the ERP would not match the number. */
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/;

/** null without the flag; otherwise the file read and checked, or a UsageError naming the line. */
export function readUnitRefs(given: string | undefined, cwd: string): UnitRefs | null {
  if (given === undefined) return null;
  const file = path.resolve(cwd, given);
  let read: ReturnType<typeof readBounded>;
  try {
    read = readBounded(file, MAX_BYTES);
  } catch (e) {
    throw new UsageError(t.cannotRead({ file: given, error: (e as NodeJS.ErrnoException).code ?? String(e) }), t.cannotReadHint, CODE);
  }
  if (!read.ok) {
    const message = { folder: t.isFolder, 'not-a-file': t.notAFile, 'too-large': (p: { file: string }) => t.tooLarge({ ...p, mb: MAX_BYTES >> 20 }) }[read.why];
    throw new UsageError(message({ file: given }), read.why === 'too-large' ? t.tooLargeHint : t.cannotReadHint, CODE);
  }
  const bytes = read.bytes;
  let text: string;
  try {
    // A NUL is no text: UTF-16 without a byte order mark decodes as "valid" UTF-8 full of them.
    if (bytes.includes(0)) throw new Error('NUL');
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(t.notUtf8({ file: given }), t.notUtf8Hint, CODE);
  }
  return parseUnitRefs(text, given);
}

/** Lines as an editor counts them, before the CSV is parsed: 60 MB of empty lines would be 60 million records. */
function tooManyLines(text: string): boolean {
  const breaks = /\r\n|\r|\n/g;
  let n = 0;
  while (n <= MAX_LINES && breaks.exec(text)) n++;
  return n + (/[\r\n]$/.test(text) ? 0 : 1) > MAX_LINES;
}

/** The separator of the header (the first line with a name in it): a semicolon when it has more of them than commas. */
function separatorOf(text: string): string {
  const head = text.split(/\r\n|\n|\r/, 100).find((l) => /[^\s;,"]/.test(l)) ?? '';
  const count = (c: string) => head.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

export function parseUnitRefs(text: string, file: string): UnitRefs {
  const body = text.replace(/^\uFEFF/, '');
  if (tooManyLines(body)) throw new UsageError(t.tooMany({ file, max: MAX_LINES }), t.tooLargeHint, CODE);
  const { records, open } = parseCsvRecords(body, separatorOf(body));
  const bad = (message: string, line: number, hint = t.lineHint({ line, file })) => new UsageError(message, hint, CODE);
  if (open !== null) throw bad(t.openQuote({ file, line: open }), open);
  const rows = records.filter((r) => r.fields.some((f) => f.trim() !== ''));
  const header = rows.shift() ?? { fields: [], line: 1 };
  const head = header.fields.map((h) => h.trim().toLowerCase());
  const idAt = head.indexOf('usage_unit_id');
  const refAt = head.indexOf('erp_ref');
  for (const [column, at] of [
    ['usage_unit_id', idAt],
    ['erp_ref', refAt],
  ] as const) {
    if (at < 0) throw new UsageError(t.noColumn({ file, line: header.line, column }), t.noColumnHint, CODE);
    // Two columns of one name: which one holds the ids (or the references) cannot be told.
    if (head.lastIndexOf(column) !== at) throw new UsageError(t.columnTwice({ file, line: header.line, column }), t.noColumnHint, CODE);
  }
  const seen = new Map<string, { ref: string; line: number }>();
  const entries: [string, string, number][] = [];
  const last = idAt > refAt ? { column: 'usage_unit_id', needed: idAt + 1 } : { column: 'erp_ref', needed: refAt + 1 };
  for (const { fields, line } of rows) {
    if (fields.length < last.needed) throw bad(t.fields({ file, line, n: fields.length, ...last }), line);
    const id = fields[idAt]!.trim();
    const ref = fields[refAt]!.trim();
    if (!UUID.test(id)) throw bad(t.notUnit({ file, line, id: id.slice(0, 60) }), line);
    if (ref === '') continue; // a unit listed without its number yet: reported as a unit without a reference
    // C0, DEL, C1 and bidi controls: none belongs in an ERP number, and U+202E would show it reversed.
    if (hasControlCharacter(ref) || INVISIBLE.test(ref)) throw bad(t.badRef({ file, line }), line);
    if (ref.length > MAX_REF) throw bad(t.longRef({ file, line, max: MAX_REF }), line);
    const key = id.toLowerCase();
    const before = seen.get(key);
    if (before && before.ref !== ref) throw bad(t.twice({ file, line, first: before.line }), line, t.twiceHint({ first: before.line, line }));
    if (before) continue;
    seen.set(key, { ref, line });
    entries.push([key, ref, line]);
  }
  return { file, entries };
}

/** The template with an erp_ref column in billing (after the unit's id, unless it names the column itself). */
export function withUnitRefs(template: Template, refs: UnitRefs | null): Template {
  if (!refs) return template;
  const header = inLanguage(columnHeaders, template.words ?? 'en').erp_ref;
  const files = template.files.map((f) => {
    if (f.table !== 'billing' || f.columns.some((c) => c.key === 'erp_ref')) return f;
    const at = f.columns.findIndex((c) => c.key === 'usage_unit_id') + 1;
    const columns = [...f.columns.slice(0, at), { key: 'erp_ref', header, type: 'text' as const }, ...f.columns.slice(at)];
    return { ...f, columns };
  });
  return { ...template, files, erpRef: true };
}

/** One export's use of the references: rows get erp_ref, units and lines become findings. */
export interface UnitRefIndex {
  /** Rows of billing (or Overview units) with their erp_ref; as they are without --unit-refs. */
  withRef<R extends { usage_unit_id?: string; id?: string }>(rows: readonly R[]): (R & { erp_ref?: string | null })[];
  /** UNIT_REF_MISSING and UNIT_REF_SHARED for the units of one Property. */
  flags(propertyId: string, unitIds: readonly string[]): Flag[];
  /** UNIT_REF_UNKNOWN for the lines whose unit no Property of the export had: the first MAX_UNKNOWN_LISTED of them. */
  unknown(): Flag[];
  /** How many lines name a unit no Property of the export had (after the walk). */
  unknownCount(): number;
}

/**
 * Lines for units the export did not have are listed in review.csv up to this many: one ERP file for every landlord
 * (a portfolio's --unit-refs) names mostly other landlords' units, and a row per line (900,000 of them in a file
 * within the bounds) ran the export out of memory after its requests (round 26). The About sheet gives the count.
 */
export const MAX_UNKNOWN_LISTED = 1000;

export function unitRefIndex(refs: UnitRefs | null): UnitRefIndex {
  const byUnit = new Map((refs?.entries ?? []).map(([id, ref, line]) => [id, { ref, line }]));
  const linesOf = new Map<string, number[]>();
  for (const [, ref, line] of refs?.entries ?? []) linesOf.set(ref, [...(linesOf.get(ref) ?? []), line]);
  const exported = new Set<string>();
  return {
    withRef(rows) {
      if (!refs) return [...rows];
      return rows.map((r) => ({ ...r, erp_ref: byUnit.get((r.usage_unit_id ?? r.id ?? '').toLowerCase())?.ref ?? null }));
    },
    flags(propertyId, unitIds) {
      if (!refs) return [];
      return unitIds.flatMap((id) => {
        exported.add(id.toLowerCase());
        const scope = { property_id: propertyId, usage_unit_id: id, measuring_point_id: null, device_id: null };
        const found = byUnit.get(id.toLowerCase());
        if (!found) return [makeFlag('UNIT_REF_MISSING', scope)];
        const lines = linesOf.get(found.ref)!;
        return lines.length > 1 ? [makeFlag('UNIT_REF_SHARED', scope, { erp_ref: found.ref, lines: lines.join(', ') })] : [];
      });
    },
    unknownCount() {
      return (refs?.entries ?? []).reduce((n, [id]) => (exported.has(id) ? n : n + 1), 0);
    },
    unknown() {
      if (!refs) return [];
      const listed: (typeof refs.entries)[number][] = [];
      for (const e of refs.entries) if (!exported.has(e[0]) && listed.push(e) >= MAX_UNKNOWN_LISTED) break;
      return listed.map(([id, ref, line]) =>
        makeFlag('UNIT_REF_UNKNOWN', { property_id: '', usage_unit_id: id, measuring_point_id: null, device_id: null }, { erp_ref: ref, lines: String(line) }),
      );
    },
  };
}
