// --compare DIR: an earlier meterdata export folder as the comparison period. Its manifest
// says tenant, range and template; every file it lists must still have its recorded size
// and SHA-256, so a folder edited after the export (or another tenant's) is refused.
import path from 'node:path';
import { METRICS, type WhoAmI } from '../../api/types.js';
import { idKey } from '../../billing/contract.js';
import { readOwnFile } from '../../core/bounded-read.js';
import { checkListed, listedEntries, LISTED_FILE_MAX, LISTED_TEXT_MAX, type ListedEntry } from './listed-files.js';
import { UsageError, isMeterdataError, type ErrorCode } from '../../core/errors.js';
import { figuresFromTables, parseCsv, type Figure, type TableLayout } from '../../plausibility/index.js';
import { lstatSync } from 'node:fs';
import { MANIFEST, PORTFOLIO_SUMMARY } from './out-folder.js';
import { loadTemplate, type Template } from '../output/index.js';
import { compareText as t } from './texts-folder.js';
import { day } from '../../i18n/index.js';
import { otherLength, type Range } from '../../core/dates.js';
import { expectedRange, runKind } from '../options/index.js';

export interface FolderComparison {
  dir: string;
  range: { from: string; to: string };
  byProperty: Map<string, Figure[]>;
  /** The Properties the earlier export was narrowed to (`--property`); null: all of them. */
  properties: readonly string[] | null;
  /** Whether its template wrote the plant-room and main meters' table (plant-points): without it they are not compared. */
  plantPoints: boolean;
}

interface Manifest {
  tool?: unknown;
  identity?: { template?: unknown; properties?: unknown; metrics?: unknown; unit?: unknown };
  tenant?: { id?: unknown; name?: unknown };
  range?: { from?: unknown; to?: unknown };
  files?: unknown;
}

/**
 * Headers the built-in `de` layout wrote before its words followed docs/glossary.md: a
 * folder written then names its columns so, and is still read.
 */
const FORMER_HEADERS: Record<string, readonly string[]> = {
  metric: ['Messart'],
  billable_value: ['Abrechenbarer Wert'],
};

/** Key -> header as `csv`'s header line has it: the template's, or a former one where only that is there. */
function headersIn(csv: string | undefined, columns: readonly { key: string; header: string }[], separator: string): Record<string, string> {
  const line = (csv ?? '').replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const head = new Set(parseCsv(line, separator)[0] ?? []);
  return Object.fromEntries(columns.map((c) => [c.key, head.has(c.header) ? c.header : (FORMER_HEADERS[c.key]?.find((h) => head.has(h)) ?? c.header)]));
}

const refuse = (dir: string, what: string, hint: string, code: ErrorCode = 'EXPORT_COMPARE_INVALID') => new UsageError(t.refused({ dir, what }), hint, code);

// Every file is read only as a plain file and within a bound: a FIFO, a device or a huge
// file in the folder is refused at once, never waited on or read into memory.
function readManifest(dir: string): Manifest {
  let read: ReturnType<typeof readOwnFile>;
  try {
    read = readOwnFile(path.join(dir, MANIFEST));
  } catch {
    read = null;
  }
  // a portfolio's folder holds its profiles' exports one level down (round 32 F5: "no export there")
  if (read === null && lstatSync(path.join(dir, PORTFOLIO_SUMMARY), { throwIfNoEntry: false })?.isFile())
    throw refuse(dir, t.portfolioThere, t.portfolioThereHint({ example: path.join(dir, '<profile>') }));
  if (read === null) throw refuse(dir, t.noExport({ manifest: MANIFEST }), t.another);
  if ('problem' in read) throw refuse(dir, t.manifestUnusable({ manifest: MANIFEST, problem: read.problem }), t.another);
  let m: Manifest | null = null;
  try {
    m = JSON.parse(read.text) as Manifest;
  } catch {
    // reported below
  }
  if (!m || typeof m !== 'object' || m.tool !== 'meterdata') throw refuse(dir, t.notManifest({ manifest: MANIFEST }), t.another);
  // the monthly information's folder has a manifest too (round 32 F5: told as "fewer metrics")
  if (runKind((m as { identity?: { template?: unknown } }).identity?.template) === 'uvi') throw refuse(dir, t.uviThere, t.another);
  return m;
}

/** The manifest's files, each once, or the one-line refusal: a list meterdata did not write is not read. */
function filesOf(dir: string, m: Manifest): ListedEntry[] {
  const listed = listedEntries(m.files);
  if ('entries' in listed) return listed.entries;
  throw refuse(dir, listed.problem === 'twice' ? t.listedTwice({ manifest: MANIFEST, file: listed.name }) : t.notFileList({ manifest: MANIFEST }), t.another);
}

/** What an export covers, as its manifest's identity records it (no Property or metric listed: all of them). */
export interface Coverage {
  propertyIds: readonly string[];
  metrics: readonly string[];
  /** browse's export of one unit on its screen */
  unit?: string;
  /** the export's own period, widened to whole months */
  from: string;
  to: string;
}

/**
 * What this run covers that the earlier export left out, or null. A narrower folder is no
 * comparison: everything it left out (every other unit of a one-unit browse export, every
 * other Property or metric) would show as new since the comparison.
 */
function leftOut(theirs: Manifest['identity'], ours: Coverage): 'narrowerUnit' | 'narrowerProperties' | 'narrowerMetrics' | null {
  if (theirs?.unit !== undefined && theirs.unit !== ours.unit) return 'narrowerUnit';
  // `everything`: what "none named" means for this run. The service's Properties are not known before
  // the walk, so a run of all of them is checked Property by Property (checkFolderCovers).
  const covers = (listed: unknown, wanted: readonly string[], everything: readonly string[] | null) => {
    if (listed === undefined || (Array.isArray(listed) && listed.length === 0)) return true;
    if (!Array.isArray(listed)) return false;
    if (wanted.length === 0) return everything === null || everything.every((w) => listed.includes(w));
    return wanted.every((w) => listed.some((l) => typeof l === 'string' && idKey(l) === idKey(w)));
  };
  if (!covers(theirs?.properties, ours.propertyIds, null)) return 'narrowerProperties';
  if (!covers(theirs?.metrics, ours.metrics, METRICS)) return 'narrowerMetrics';
  return null;
}

/** The Properties an identity names, or null for all of them (none named, or an older manifest without the field). */
function listed(properties: unknown): readonly string[] | null {
  return Array.isArray(properties) && properties.length > 0 ? properties.filter((p): p is string => typeof p === 'string') : null;
}

/**
 * What of a --compare DIR can be checked before any request: a manifest of meterdata's with its
 * list of files in shape, of an export covering at least what this one covers (the tenant, the
 * period and the files themselves follow with /whoami).
 */
export function checkComparisonManifest(dir: string, ours: Coverage): void {
  const m = readManifest(dir);
  filesOf(dir, m);
  const gap = leftOut(m.identity, ours);
  if (gap) throw refuse(dir, t[gap], t.narrowerHint, 'EXPORT_COMPARE_MISMATCH');
  refuseOtherLength(dir, m.range, ours);
}

/** A folder of another number of months than this export: 7 months beside 12 show every figure as changed (round 16). */
function refuseOtherLength(dir: string, range: Manifest['range'], ours: Range): void {
  const date = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));
  // a manifest without a range is refused once the tenant is known (loadComparisonFolder)
  if (!date(range?.from) || !date(range.to) || range.to < range.from) return;
  const theirs = { from: range.from, to: range.to };
  // this year's export is answered up to the last completed month: a folder of as many months is a comparison
  const other = otherLength(ours, theirs, expectedRange(ours.from, ours.to, new Date()));
  if (!other) return;
  const [n, own] = [other.theirs, other.ours];
  const [from, to, year] = [day(theirs.from), day(theirs.to), theirs.from.slice(0, 4)];
  throw refuse(dir, t.otherLength({ n, from, to, own }), t.otherLengthHint({ year }), 'EXPORT_COMPARE_MISMATCH');
}

/**
 * A Property this run exports that the folder's export was narrowed away from (`--property`): refused as
 * checkComparisonManifest refuses a narrower list, once the walk names it (an export of every Property
 * against a folder that lists each of them is a comparison; every unit of a Property it left out would be new).
 */
export function checkFolderCovers(folder: FolderComparison, property: { id: string; name: string }): void {
  // ids compared as everywhere else (idKey): the service may write a UUID in capitals, --property keeps it as typed
  if (folder.properties && !folder.properties.some((id) => idKey(id) === idKey(property.id))) {
    throw refuse(folder.dir, t.propertyLeftOut({ name: property.name }), t.narrowerHint, 'EXPORT_COMPARE_MISMATCH');
  }
}

/** The template the earlier export was written with: a built-in, or its file beside the folder or under the current directory. */
async function templateOf(dir: string, name: unknown): Promise<Template> {
  if (typeof name !== 'string') throw refuse(dir, t.noTemplate, t.another);
  for (const base of [path.dirname(dir), process.cwd()]) {
    try {
      return await loadTemplate(name, base);
    } catch (e) {
      if (!isMeterdataError(e)) throw e;
    }
  }
  throw refuse(dir, t.templateUnreadable({ name }), t.templateUnreadableHint);
}

/** `own`: the export's own period; a folder of that same period is no comparison (the export's own folder, given twice). */
export async function loadComparisonFolder(dir: string, who: WhoAmI, own?: { from: string; to: string }): Promise<FolderComparison> {
  const m = readManifest(dir);
  if (m.tenant?.id !== who.tenant_id) {
    throw refuse(
      dir,
      t.otherTenant({ theirs: String(m.tenant?.name ?? t.anotherTenant), ours: who.tenant_name }),
      t.otherTenantHint,
      'EXPORT_COMPARE_OTHER_TENANT',
    );
  }
  const range = m.range;
  if (typeof range?.from !== 'string' || typeof range.to !== 'string') throw refuse(dir, t.noRange, t.another);
  if (own && range.from === own.from && range.to === own.to) throw refuse(dir, t.samePeriod({ from: day(range.from), to: day(range.to) }), t.another);
  const texts = new Map<string, string>();
  for (const f of filesOf(dir, m)) {
    if (typeof f.name !== 'string' || f.name.includes('/') || f.name.includes('\\')) throw refuse(dir, t.notPlain, t.another, 'EXPORT_COMPARE_MISMATCH');
    const listed = await checkListed(path.join(dir, f.name), f.bytes, f.sha256, f.name.endsWith('.csv'));
    if (!listed.ok && listed.why === 'too-large') {
      throw refuse(
        dir,
        t.tooLarge({ file: f.name, mib: (f.name.endsWith('.csv') ? LISTED_TEXT_MAX : LISTED_FILE_MAX) >> 20 }),
        t.another,
        'EXPORT_COMPARE_MISMATCH',
      );
    }
    if (!listed.ok) throw refuse(dir, t.changed({ file: f.name }), t.another, 'EXPORT_COMPARE_MISMATCH');
    if (listed.text !== null) texts.set(f.name, listed.text);
  }
  const template = await templateOf(dir, m.identity?.template);
  const layout = (table: string): { file: string; layout: TableLayout } | null => {
    const f = template.files.find((x) => x.table === table);
    return f
      ? {
          file: f.file,
          layout: { headers: headersIn(texts.get(f.file), f.columns, template.separator), separator: template.separator, decimal: template.decimal },
        }
      : null;
  };
  const billing = layout('billing');
  const plant = layout('plant-points');
  const billingCsv = billing && texts.get(billing.file);
  if (!billing || billingCsv === undefined) throw refuse(dir, t.noBilling, t.another);
  let figures: Figure[];
  try {
    figures = figuresFromTables(billingCsv!, plant ? (texts.get(plant.file) ?? null) : null, { billing: billing.layout, plant: plant?.layout ?? null });
  } catch (e) {
    throw refuse(dir, `${(e as Error).message}.`, t.another, 'EXPORT_COMPARE_MISMATCH');
  }
  const byProperty = new Map<string, Figure[]>();
  // keyed as ids are compared everywhere (idKey): the service may write a UUID in another case than when the folder was written
  for (const f of figures) {
    const list = byProperty.get(idKey(f.property_id)) ?? [];
    list.push(f);
    byProperty.set(idKey(f.property_id), list);
  }
  return { dir, range: { from: range.from, to: range.to }, byProperty, properties: listed(m.identity?.properties), plantPoints: plant !== null };
}
