// `meterdata export`: flags, template and out folder are checked before any request;
// then sign-in, the walk and the files (src/export). Exit 0 also when values were not
// billed or need review (they are listed in review.csv); with --strict such a run
// ends with exit 6 (code EXPORT_FLAGS_STRICT) after all files were written.
import { ExitCode, MeterdataError, UsageError } from '../core/errors.js';
import type { Io } from '../core/io.js';
import { terminalSafeJson } from '../core/terminal-text.js';
import { dirs } from '../core/paths.js';
import { packageVersion } from '../core/resources.js';
import { fixedExportTime, identity, parseExportArgs, type ExportArgs } from '../export/options.js';
import { checkOutDir, finalNames, findingsPlace, type WorkbookWriter } from '../export/output.js';
import type { Slots } from '../export/held.js';
import { createReporter, type Reporter } from '../export/progress.js';
import type { ExportDeps, ExportSummary, StagedExport } from '../export/run.js';
import { activeTemplate } from '../export/review-options.js';
import { loadTemplate } from '../export/templates.js';
import { plural, pluralWord } from '../core/plural.js';

/** A line of its own where the service answered for less than was asked, or where nothing had values. */
function rangeLines(s: ExportSummary, see: string): string[] {
  const lines: string[] = [];
  if (s.range.to < s.requested.to || s.range.from !== s.requested.from) {
    lines.push(`range shortened: requested ${s.requested.from} to ${s.requested.to}, the service answered for ${s.range.from} to ${s.range.to} (it delivers completed months only, and has no data past its last one); the folder's manifest carries ${s.range.from} to ${s.range.to}`);
  }
  if (s.pointsWithData === 0) {
    const points = s.counts.measuring_points;
    lines.push(points ? `no data: none of the ${plural(points, 'measuring point')} has values for ${s.range.from} to ${s.range.to}, so nothing was billed${see}` : `no data: the exported Properties have no measuring points, so nothing was billed`);
  }
  return lines;
}

export function summaryText(s: ExportSummary, template: Pick<Template, 'files'>): string {
  const place = findingsPlace(s, template);
  const see = place ? ` (see ${place})` : '';
  const files = s.files.map((f) => (f.rows === undefined ? f.name : `${f.name} (${plural(f.rows, 'row')})`)).join(', ');
  const c = s.counts;
  return [
    `wrote ${s.out} for ${s.range.from} to ${s.range.to}: ${files}`,
    ...rangeLines(s, see),
    `${plural(c.properties, 'Property')}, ${plural(c.units, 'unit')}, ${plural(c.measuring_points, 'measuring point')} (${c.plant_points} plant-room/main), ${plural(s.requests, 'request')}${s.resumed ? ', resumed' : ''}`,
    `flags: ${s.flags.not_billed} not billed, ${s.flags.review} to review, ${s.flags.info} info${s.flags.not_billed + s.flags.review ? see : ''}`,
  ].join('\n');
}

export function summaryJson(s: ExportSummary): string {
  return terminalSafeJson({
    out: s.out,
    files: s.files,
    range: s.range,
    requested_range: s.requested,
    points_with_data: s.pointsWithData,
    tenant: s.tenant,
    exported_at: s.exportedAt,
    resumed: s.resumed,
    counts: s.counts,
    flags: s.flags,
    flag_codes: s.codes,
    requests: s.requests,
  });
}

/** Everything that can be checked without the network; throws UsageError naming the flag. */
export async function prepareExport(opts: Record<string, unknown>, io: Io) {
  const args = parseExportArgs(opts, io.cwd, io.env);
  fixedExportTime(io.env);
  const template = await loadTemplate(args.template, io.cwd);
  await checkOutDir(args.out, identity(args), finalNames(activeTemplate(template, args.review), args.formats));
  return { args, template };
}

type Template = Awaited<ReturnType<typeof loadTemplate>>;
type Connection = { baseUrl: string; credentials: import('../core/credentials.js').Credentials };

/** A reporter other than the export's own bar (the portfolio display), and slots shared with other exports. */
interface Shared {
  reporter?: (requests: () => number) => Reporter;
  slots?: Slots;
  /** Writes billing.xlsx instead of a worker of its own (the portfolio's workbook workers). */
  writeWorkbook?: WorkbookWriter;
}

/** An API client, a reporter and the rest of ExportDeps for `fn`; the client is closed afterwards. */
async function withExportDeps<T>(args: ExportArgs, template: Template, io: Io, conn: Connection, fn: (deps: ExportDeps) => Promise<T>, shared: Shared = {}): Promise<T> {
  const { createApiClient } = await import('../api/client.js');
  const api = createApiClient({ baseUrl: conn.baseUrl, credentials: conn.credentials, rateLimitPerMinute: args.rateLimit, signal: io.signal });
  const requests = () => api.stats().requests;
  const reporter = shared.reporter ? shared.reporter(requests) : createReporter(io, { quiet: args.quiet, requests });
  const fixed = fixedExportTime(io.env);
  try {
    return await fn({ api, args, template, stateDir: dirs(io.env).state, reporter, toolVersion: packageVersion(), signal: io.signal, ...(fixed ? { now: () => fixed } : {}), ...(shared.slots ? { slots: shared.slots } : {}) });
  } finally {
    await api.close();
  }
}

export async function exportWith(args: ExportArgs, template: Template, io: Io, conn: Connection): Promise<ExportSummary> {
  const { runExport } = await import('../export/run.js');
  return withExportDeps(args, template, io, conn, runExport);
}

async function connect(args: ExportArgs, io: Io): Promise<Connection> {
  const { openConnection } = await import('../auth/connection.js');
  return openConnection({ profile: args.profile, env: io.env, signal: io.signal, ...(args.quiet ? {} : { warn: (l: string) => io.stderr.write(l) }) });
}

/** Worker side of an isolated export: sign-in, the walk, billing and the CSV files (see exportIsolated). */
export async function stageInWorker(input: { args: ExportArgs; template: Template }, io: Io): Promise<StagedExport> {
  const { args, template } = input;
  const conn = await connect(args, io);
  const { stageExport } = await import('../export/run.js');
  return withExportDeps(args, template, io, conn, stageExport);
}

const YOUNG_MB = 8;
const DEFAULT_HEAP_MB = 1024;

/** Old-space cap of the export's workers: METERDATA_EXPORT_HEAP_MB, else 1024. */
export function exportHeapMb(env: NodeJS.ProcessEnv): number {
  const raw = env.METERDATA_EXPORT_HEAP_MB;
  if (raw === undefined || raw === '') return DEFAULT_HEAP_MB;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 128 || n > 65536) {
    throw new UsageError(`METERDATA_EXPORT_HEAP_MB=${raw} is not a whole number of megabytes between 128 and 65536.`, `Set it to e.g. ${DEFAULT_HEAP_MB * 4}, or unset it for the default ${DEFAULT_HEAP_MB}.`, 'EXPORT_HEAP_INVALID');
  }
  return n;
}

/**
 * The export of the built CLI: the walk and the workbook each in a worker thread with
 * small heap limits (core/isolate.ts), one after the other, so the second starts with
 * the first one's heap gone; the commit happens here. Same files as exportWith.
 */
async function exportIsolated(args: ExportArgs, template: Template, io: Io): Promise<ExportSummary> {
  const [{ runIsolated }, { finishExport }] = await Promise.all([import('../core/isolate.js'), import('../export/run.js')]);
  const { limits, outOfMemory } = isolation(args, io);
  const staged = await runIsolated<StagedExport>(new URL(import.meta.url), 'stageInWorker', { args, template }, { limits, io, outOfMemory: outOfMemory('fetching') });
  return finishExport(staged, { signal: io.signal, writeWorkbook: await workbookWriter(args, io) });
}

/** billing.xlsx written in a worker thread with the export's heap limits (see exportIsolated). */
async function workbookWriter(args: ExportArgs, io: Io) {
  const { runIsolated } = await import('../core/isolate.js');
  const { limits, outOfMemory } = isolation(args, io);
  const xlsxModule = new URL('../export/xlsx-writer.js', import.meta.url);
  return (input: unknown) => runIsolated<void>(xlsxModule, 'writeXlsx', input, { limits, io, outOfMemory: outOfMemory('workbook'), onAbort: 'terminate' });
}

function isolation(args: ExportArgs, io: Io) {
  const limits = { youngMb: YOUNG_MB, oldMb: exportHeapMb(io.env) };
  // finishExport adds to a workbook failure that nothing was committed and how to continue.
  const raise = `METERDATA_EXPORT_HEAP_MB=${limits.oldMb * 4}`;
  const outOfMemory = (phase: 'fetching' | 'workbook') => () =>
    new MeterdataError(
      phase === 'fetching'
        ? `The export needed more than ${limits.oldMb} MB of memory while fetching the data; no files were put under their final names in ${args.out}.`
        : `The export needed more than ${limits.oldMb} MB of memory while writing billing.xlsx.`,
      {
        code: 'EXPORT_OUT_OF_MEMORY',
        exitCode: ExitCode.UNEXPECTED,
        hint: phase === 'fetching' ? `Run the same command again with ${raise} set; what was fetched is kept.` : `Set ${raise} for the next run.`,
      },
    );
  return { limits, outOfMemory };
}

/**
 * One profile of the portfolio export (src/export/portfolio.ts): the walk in this thread,
 * holding `slots` for its Properties, then billing.xlsx (in a worker where the built CLI
 * isolates) while holding one of `workbooks`. Same files as a single export.
 */
export async function exportProfile(args: ExportArgs, template: Template, io: Io, shared: Shared & { workbooks: Slots }): Promise<ExportSummary> {
  const { stageExport, finishExport } = await import('../export/run.js');
  const { isolationAvailable } = await import('../core/isolate.js');
  const staged = await withExportDeps(args, template, io, await connect(args, io), stageExport, shared);
  const release = await shared.workbooks.acquire();
  try {
    const writeWorkbook = shared.writeWorkbook ?? (io.isolate && isolationAvailable() ? await workbookWriter(args, io) : undefined);
    return await finishExport(staged, { signal: io.signal, ...(writeWorkbook ? { writeWorkbook } : {}) });
  } finally {
    release();
  }
}

export async function run(opts: Record<string, unknown>, io: Io): Promise<number> {
  if (opts.allProfiles === true || opts.profiles !== undefined) return (await import('../export/portfolio.js')).runPortfolio(opts, io);
  const { args, template } = await prepareExport(opts, io);
  const { isolationAvailable } = await import('../core/isolate.js');
  const summary = io.isolate && isolationAvailable() ? await exportIsolated(args, template, io) : await exportWith(args, template, io, await connect(args, io));
  if (args.json) io.stdout.write(`${summaryJson(summary)}\n`);
  if (!args.quiet) io.stderr.write(`${summaryText(summary, template)}\n`);
  const failure = strictFailure(summary, template);
  if (args.strict && failure) throw failure;
  return ExitCode.OK;
}

/** What `--strict` reports when values were not billed or need review; null when none do. */
export function strictFailure(summary: ExportSummary, template: Pick<Template, 'files'>): MeterdataError | null {
  const attention = summary.flags.not_billed + summary.flags.review;
  if (attention === 0) return null;
  return new MeterdataError(`--strict: ${plural(attention, 'finding')} ${pluralWord(attention, 'needs', 'need')} attention (${summary.flags.not_billed} not billed, ${summary.flags.review} to review); the files were written.`, {
    code: 'EXPORT_FLAGS_STRICT',
    exitCode: ExitCode.NEEDS_REVIEW,
    hint: `See ${findingsPlace(summary, template) ?? 'the files'} in ${summary.out}.`,
  });
}
