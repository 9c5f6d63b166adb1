// `meterdata export` flags, checked before any request: each bad value is one line
// naming the flag (UsageError, exit 2).
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { lastCompletedMonthEnd } from '../api/answers.js';
import { METRICS, UUID, isKnown, type KnownMetric } from '../api/types.js';
import { parseReviewArgs, type ReviewArgs } from './review-options.js';
import { readUnitRefs, type UnitRefs } from './unit-refs.js';

export const FORMATS = ['csv', 'xlsx'] as const;
export type Format = (typeof FORMATS)[number];

export interface ExportArgs {
  /** Requested range, widened locally to whole months (the server's echo is what the sheets show). */
  from: string;
  to: string;
  propertyIds: string[];
  /** Empty: all metrics. */
  metrics: KnownMetric[];
  formats: Format[];
  out: string;
  template: string;
  profile: string | undefined;
  rateLimit: number;
  json: boolean;
  quiet: boolean;
  strict: boolean;
  /** The plausibility review (src/review); null when not asked for. */
  review: ReviewArgs | null;
  /** --unit-refs: the ERP references, read and checked with the flags (src/export/unit-refs.ts). */
  unitRefs: UnitRefs | null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function lastDay(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A real calendar date yyyy-mm-dd, or a UsageError naming the flag. */
export function parseDate(value: string, flag: string): { y: number; m: number; d: number } {
  const m = DATE.exec(value);
  const bad = () => new UsageError(`${flag}: "${value}" is not a date; use yyyy-mm-dd, e.g. ${flag === '--to' ? '2025-12-31' : '2025-01-01'}.`);
  if (!m) throw bad();
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (y < 1900 || y > 2999 || mo < 1 || mo > 12 || d < 1 || d > lastDay(y, mo)) throw bad();
  return { y, m: mo, d };
}

/** A date pair widened to whole months, as the service does (it also names the default folder). */
export function wholeMonths(fromOpt: string, toOpt: string, [fromFlag, toFlag]: [string, string]): { from: string; to: string } {
  const f = parseDate(fromOpt, fromFlag);
  const t = parseDate(toOpt, toFlag);
  if (toOpt < fromOpt) throw new UsageError(`${toFlag} ${toOpt} lies before ${fromFlag} ${fromOpt}.`);
  return { from: `${f.y}-${pad(f.m)}-01`, to: `${t.y}-${pad(t.m)}-${pad(lastDay(t.y, t.m))}` };
}

function list(value: string): string[] {
  return [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * The range the service will answer for, as far as this computer's clock can tell: `to`
 * capped at the last completed month. The default folder is named after it; the sheets
 * and the manifest carry what the service echoed.
 */
export function expectedRange(from: string, to: string, now: Date): { from: string; to: string } {
  const last = lastCompletedMonthEnd(now);
  return { from, to: to > last && last >= from ? last : to };
}

/**
 * --year, or --from and --to, as given (checked, not yet widened to whole months); null when
 * neither is given. export and browse both read their period here, so both name the flag alike.
 */
export function periodFlags(opts: { year?: unknown; from?: unknown; to?: unknown }): { from: string; to: string } | null {
  const year = str(opts.year);
  const fromOpt = str(opts.from);
  const toOpt = str(opts.to);
  if (year !== undefined) {
    if (fromOpt !== undefined || toOpt !== undefined) throw new UsageError('--year cannot be combined with --from/--to.', 'Give either --year 2025 or --from 2025-01-01 --to 2025-12-31.');
    if (!/^\d{4}$/.test(year) || Number(year) < 1900 || Number(year) > 2999) throw new UsageError(`--year: "${year}" is not a year; use four digits, e.g. --year 2025.`);
    return { from: `${year}-01-01`, to: `${year}-12-31` };
  }
  if (fromOpt === undefined && toOpt === undefined) return null;
  if (fromOpt === undefined) throw new UsageError('--from is missing: --to needs a start date too.', 'e.g. --from 2025-01-01 --to 2025-12-31, or --year 2025.');
  if (toOpt === undefined) throw new UsageError('--to is missing: --from needs an end date too.', 'e.g. --from 2025-01-01 --to 2025-12-31, or --year 2025.');
  parseDate(fromOpt, '--from');
  parseDate(toOpt, '--to');
  if (toOpt < fromOpt) throw new UsageError(`--to ${toOpt} lies before --from ${fromOpt}.`);
  return { from: fromOpt, to: toOpt };
}

export function parseExportArgs(opts: Record<string, unknown>, cwd: string, env: NodeJS.ProcessEnv, now = new Date()): ExportArgs {
  const period = periodFlags(opts);
  if (!period) throw new UsageError('Which period? Give --year (e.g. --year 2025) or --from and --to (yyyy-mm-dd).');
  const { from, to } = wholeMonths(period.from, period.to, ['--from', '--to']);

  const rawIds = Array.isArray(opts.property) ? (opts.property as string[]) : str(opts.property) ? [str(opts.property)!] : [];
  const propertyIds: string[] = [];
  if (rawIds.some((r) => list(r).length === 0)) throw new UsageError('--property: the list is empty.', 'Give Property ids (e.g. --property <id>,<id>), or leave --property out to export every Property (check the variables your script passes).');
  for (const raw of rawIds.flatMap(list)) {
    if (!UUID.test(raw)) throw new UsageError(`--property: "${raw}" is not a Property id (a UUID such as 3f2a…-…).`, 'Copy the id from `meterdata browse`.');
    const id = raw.toLowerCase();
    if (!propertyIds.includes(id)) propertyIds.push(id);
  }

  const metrics: KnownMetric[] = [];
  if (str(opts.metric) !== undefined) {
    const given = list(str(opts.metric)!);
    if (given.length === 0) throw new UsageError('--metric: the list is empty.', `Known metrics: ${METRICS.join(', ')}.`);
    for (const m of given) {
      if (!isKnown(METRICS, m)) throw new UsageError(`--metric: unknown metric "${m}".`, `Known metrics: ${METRICS.join(', ')}.`);
      metrics.push(m);
    }
  }

  const formats: Format[] = [];
  for (const f of list(str(opts.format) ?? 'csv,xlsx')) {
    if (!isKnown(FORMATS, f)) throw new UsageError(`--format: unknown format "${f}".`, 'Use csv, xlsx or csv,xlsx.');
    formats.push(f);
  }
  if (formats.length === 0) throw new UsageError('--format: the list is empty.', 'Use csv, xlsx or csv,xlsx.');
  formats.sort();

  const rateRaw = str(opts.rateLimit) ?? '300';
  if (!/^\d+$/.test(rateRaw) || Number(rateRaw) < 1 || Number(rateRaw) > 10_000) {
    throw new UsageError(`--rate-limit: "${rateRaw}" is not a number of requests per minute (1 to 10000).`, 'The service allows 300 per minute per connection.');
  }

  const template = str(opts.template) ?? 'generic';
  const expected = expectedRange(from, to, now);
  const out = path.resolve(cwd, str(opts.out) ?? `meterdata-${expected.from}_${expected.to}`);
  const profile = str(opts.profile) ?? env.METERDATA_PROFILE;
  return {
    from,
    to,
    propertyIds,
    metrics,
    formats,
    out,
    template,
    profile: profile || undefined,
    rateLimit: Number(rateRaw),
    json: opts.json === true,
    quiet: opts.quiet === true,
    strict: opts.strict === true,
    review: parseReviewArgs(opts, cwd, wholeMonths),
    unitRefs: readUnitRefs(str(opts.unitRefs), cwd),
  };
}

/**
 * What identifies "the same export": everything that shapes the files. The manifest and
 * the --out check use it; the journal key adds the out folder (two folders, two journals).
 */
export function identity(a: ExportArgs): Record<string, unknown> {
  return { profile: a.profile ?? 'default', from: a.from, to: a.to, properties: a.propertyIds, metrics: a.metrics, formats: a.formats, template: a.template, ...(a.review ? { review: a.review } : {}) };
}

/**
 * SOURCE_DATE_EPOCH (seconds, the reproducible-builds convention) fixes the export time
 * written into the files, so separate runs over the same data give the same bytes.
 */
export function fixedExportTime(env: NodeJS.ProcessEnv): Date | null {
  const v = env.SOURCE_DATE_EPOCH;
  if (v === undefined || v === '') return null;
  if (!/^\d{1,12}$/.test(v)) throw new UsageError(`SOURCE_DATE_EPOCH: "${v}" is not a number of seconds since 1970.`, 'Unset it, or set it to e.g. $(date +%s).');
  return new Date(Number(v) * 1000);
}
