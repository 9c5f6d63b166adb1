// One profile's export as the commands run it (`export`, `demo`, browse's `e`, each
// profile of the portfolio): the checks before any request, the API client and the
// reporter around the walk, and the built CLI's worker threads with small heap limits.
import { ExitCode, MeterdataError, UsageError } from '../core/errors.js';
import { write, type Io } from '../core/io.js';
import { dirs } from '../core/paths.js';
import { packageVersion } from '../core/resources.js';
import { fixedExportTime, identity, parseExportArgs, type ExportArgs, type ExportFlags } from './options/index.js';
import { checkComparisonManifest, checkOutDir } from './folder/index.js';
import { finalNames, loadTemplate, WORKBOOK_MODULE, type RenderAhead, type WorkbookWriter } from './output/index.js';
import type { Slots } from './pipeline/index.js';
import { createReporter, type Reporter } from './progress.js';
import type { ExportDeps, ExportSummary, StagedExport } from './run.js';
import { activeTemplate } from './options/index.js';
import { runText as t } from './texts-run.js';

/** Everything that can be checked without the network; throws UsageError naming the flag. */
export async function prepareExport(opts: ExportFlags, io: Io) {
  const args = parseExportArgs(opts, io.cwd, io.env);
  fixedExportTime(io.env);
  const template = await loadTemplate(args.template, io.cwd);
  await checkOutDir(args.out, identity(args), finalNames(activeTemplate(template, args.review), args.formats), args);
  const compare = args.review?.compare;
  if (compare && 'dir' in compare) checkComparisonManifest(compare.dir, args);
  return { args, template };
}

type Template = Awaited<ReturnType<typeof loadTemplate>>;
type Connection = import('../auth/connection.js').Connection;

/** A reporter other than the export's own bar (the portfolio display), and slots shared with other exports. */
export interface Shared {
  reporter?: (requests: () => number) => Reporter;
  slots?: Slots;
  /** Writes billing.xlsx instead of a worker of its own (the portfolio's workbook workers). */
  writeWorkbook?: WorkbookWriter;
  /** Renders the workbook's rows while the walk goes on (the same workers; see workbook-workers.ts). */
  renderAhead?: RenderAhead;
  /** false: each Property is written at its end (a run whose step writes files of its own per Property). */
  streamUnits?: boolean;
  /** Throws unless the portfolio still holds its --out root (see Journal.checkHeld): checked with the run's own folder locks. */
  held?: () => void;
}

/**
 * The one place ExportDeps are assembled (the export's own run, each profile of the
 * portfolio, browse's `e`): the journal under meterdata's state folder, this version, the
 * run's signal, and what the caller adds (a fixed time, one unit to write, shared slots).
 */
export function exportDeps(
  parts: { api: ExportDeps['api']; args: ExportArgs; template: Template; reporter: Reporter; io: Io },
  more: Pick<ExportDeps, 'now' | 'slots' | 'renderAhead' | 'streamUnits'> = {},
): ExportDeps {
  const { io, ...rest } = parts;
  return { ...rest, stateDir: dirs(io.env).state, toolVersion: packageVersion(), signal: io.signal, ...more };
}

/** An API client on the connection, a reporter and the rest of ExportDeps for `fn`; client and connection are closed afterwards. */
export async function withExportDeps<T>(
  args: ExportArgs,
  template: Template,
  io: Io,
  conn: Connection,
  fn: (deps: ExportDeps) => Promise<T>,
  shared: Shared = {},
): Promise<T> {
  const api = conn.api({ signal: io.signal });
  const requests = () => api.stats().requests;
  const reporter = shared.reporter ? shared.reporter(requests) : createReporter(io, { quiet: args.quiet, requests });
  const fixed = fixedExportTime(io.env);
  try {
    return await fn(
      exportDeps(
        { api, args, template, reporter, io },
        {
          ...(fixed ? { now: () => fixed } : {}),
          ...(shared.slots ? { slots: shared.slots } : {}),
          ...(shared.renderAhead ? { renderAhead: shared.renderAhead } : {}),
          ...(shared.streamUnits === false ? { streamUnits: false } : {}),
        },
      ),
    );
  } finally {
    await api.close();
    await conn.close();
  }
}

export async function exportWith(args: ExportArgs, template: Template, io: Io, conn: Connection): Promise<ExportSummary> {
  const { runExport } = await import('./run.js');
  return withExportDeps(args, template, io, conn, runExport);
}

/** The line a single run says while it waits for another's commit, unless --quiet (a portfolio's display has its own lines). */
export function waitNote(args: { quiet: boolean }, io: Io): { note?: (line: string) => void } {
  return args.quiet ? {} : { note: (line) => write(io.stderr, line) };
}

/** The export's connection options: its profile, its --rate-limit, warnings unless --quiet. */
export function exportConnection(args: ExportArgs, io: Io) {
  return { profile: args.profile, rateLimitPerMinute: args.rateLimit, ...(args.quiet ? {} : { warn: (l: string) => io.stderr.write(l) }) };
}

/** Opens a connection on the given options (the command context's connect, or openConnection on io's environment). */
export type Connect = (options: ReturnType<typeof exportConnection>) => Promise<Connection>;

async function connect(args: ExportArgs, io: Io): Promise<Connection> {
  const { openConnection } = await import('../auth/connection.js');
  return openConnection({ ...exportConnection(args, io), env: io.env, signal: io.signal });
}

/** Worker side of an isolated export: sign-in, the walk, billing and the CSV files (see exportIsolated). */
export async function stageInWorker(input: { args: ExportArgs; template: Template }, io: Io): Promise<StagedExport> {
  const { args, template } = input;
  const conn = await connect(args, io);
  const { stageExport } = await import('./run.js');
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
    throw new UsageError(t.heapInvalid({ raw }), t.heapInvalidHint({ example: DEFAULT_HEAP_MB * 4, standard: DEFAULT_HEAP_MB }), 'EXPORT_HEAP_INVALID');
  }
  return n;
}

/**
 * The export of the built CLI: the walk and the workbook each in a worker thread with
 * small heap limits (core/isolate.ts), one after the other, so the second starts with
 * the first one's heap gone; the commit happens here. Same files as exportWith.
 */
async function exportIsolated(args: ExportArgs, template: Template, io: Io): Promise<ExportSummary> {
  const [{ runIsolated }, { finishExport }] = await Promise.all([import('../core/isolate.js'), import('./run.js')]);
  const { limits, outOfMemory } = isolation(args, io);
  const staged = await runIsolated<StagedExport>(
    new URL(import.meta.url),
    'stageInWorker',
    { args, template },
    { limits, io, outOfMemory: outOfMemory('fetching') },
  );
  return finishExport(staged, { signal: io.signal, writeWorkbook: await workbookWriter(args, io), ...waitNote(args, io) });
}

/** billing.xlsx written in a worker thread with the export's heap limits (see exportIsolated). */
async function workbookWriter(args: ExportArgs, io: Io) {
  const { runIsolated } = await import('../core/isolate.js');
  const { limits, outOfMemory } = isolation(args, io);
  return (input: unknown, signal?: AbortSignal) =>
    runIsolated<void>(WORKBOOK_MODULE, 'writeXlsx', input, {
      limits,
      io: signal ? { ...io, signal } : io,
      outOfMemory: outOfMemory('workbook'),
      onAbort: 'terminate',
    });
}

/** What a run's worker says when it needs more than its old-space cap (the export's own words by default). */
export interface MemoryTexts {
  memory: (p: { mb: number; out: string }) => string;
  memoryHint: (p: { raise: string }) => string;
}

/** The heap limits of a run's worker threads (METERDATA_EXPORT_HEAP_MB, checked here) and the error for each phase. */
export function isolation(args: ExportArgs, io: Io, texts: MemoryTexts = { memory: t.memoryFetching, memoryHint: t.memoryFetchingHint }) {
  const limits = { youngMb: YOUNG_MB, oldMb: exportHeapMb(io.env) };
  // finishExport adds to a workbook failure that nothing was committed and how to continue.
  const raise = `METERDATA_EXPORT_HEAP_MB=${limits.oldMb * 4}`;
  const outOfMemory = (phase: 'fetching' | 'workbook') => () =>
    new MeterdataError(phase === 'fetching' ? texts.memory({ mb: limits.oldMb, out: args.out }) : t.memoryWorkbook({ mb: limits.oldMb }), {
      code: 'EXPORT_OUT_OF_MEMORY',
      exitCode: ExitCode.UNEXPECTED,
      hint: phase === 'fetching' ? texts.memoryHint({ raise }) : t.memoryWorkbookHint({ raise }),
    });
  return { limits, outOfMemory };
}

/**
 * One profile of the portfolio export (src/export/portfolio/portfolio.ts): the walk in this thread,
 * holding `slots` for its Properties, then billing.xlsx (in a worker where the built CLI
 * isolates) while holding one of `workbooks` (finishExport waits for it, touching the folder locks). Same files as a single export.
 */
export async function exportProfile(args: ExportArgs, template: Template, io: Io, shared: Shared & { workbooks: Slots }): Promise<ExportSummary> {
  const { stageExport, finishExport } = await import('./run.js');
  const { isolationAvailable } = await import('../core/isolate.js');
  const staged = await withExportDeps(args, template, io, await connect(args, io), stageExport, shared);
  const writeWorkbook = shared.writeWorkbook ?? (io.isolate && isolationAvailable() ? await workbookWriter(args, io) : undefined);
  const slot = () => shared.workbooks.acquire();
  return finishExport(staged, { signal: io.signal, slot, ...(writeWorkbook ? { writeWorkbook } : {}), ...(shared.held ? { held: shared.held } : {}) });
}

/**
 * `meterdata export` of one profile: in worker threads where the built CLI isolates (the
 * worker opens its own connection: a function does not cross threads), else in this thread
 * on the connection `open` gives (the command context's, which tests may replace).
 */
export async function exportSingle(args: ExportArgs, template: Template, io: Io, open?: Connect): Promise<ExportSummary> {
  const { isolationAvailable } = await import('../core/isolate.js');
  if (io.isolate && isolationAvailable()) return exportIsolated(args, template, io);
  return exportWith(args, template, io, open ? await open(exportConnection(args, io)) : await connect(args, io));
}
