// `meterdata export --all-profiles` / `--profiles a,b,c` (and `meterdata uvi`'s): the run of
// every listed profile at the same time in one process. Each profile's run is an ordinary
// single-profile run of its job (portfolio-job.ts) into <out>/<profile>/ (same files, same
// manifest, the bytes of `meterdata export --profile P --out <out>/P`), with its own API client
// and so its own rate budget; what they share is the cap on Properties held in memory
// (pipeline/held.ts) and the workbooks written at once (workbooksAtOnce). A profile that fails
// does not stop the others.
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { writeFileAtomic } from '../../core/atomic-file.js';
import { loadProfile, loadProfiles, reservedInPortfolio, resolveProfileName } from '../../core/config.js';
import { ExitCode, MeterdataError, NotSignedInError, UsageError } from '../../core/errors.js';
import type { Io } from '../../core/io.js';
import { dirs } from '../../core/paths.js';
import { terminalSafeJson } from '../../core/terminal-text.js';
import { Slots } from '../pipeline/index.js';
import { checkNoFolderAt, checkNotOtherCommand, checkNotOthersIn, checkWritable } from '../folder/index.js';
import { Journal, lockOutFolder } from '../journal/index.js';
import { loadWorkbookWorkers, WORKBOOK_WORKERS_MODULE } from '../output/index.js';
import { prepareJob, type JobName, type PortfolioJob } from './portfolio-job.js';
import { createPortfolioDisplay, type PortfolioDisplay } from './portfolio-progress.js';
import { FinishedRecord, keptResult } from './portfolio-record.js';
import { diskProblem } from '../run-errors.js';
import { located } from '../../core/disk.js';
import {
  describeFailure,
  profileJson,
  profileLine,
  summaryCsv,
  SUMMARY_FILE,
  tidySummaryLeftovers,
  worstExitCode,
  type ProfileResult,
} from './portfolio-summary.js';
import { t } from './texts-portfolio.js';

export const DEFAULT_HELD_PROPERTIES = 32;

/** METERDATA_PORTFOLIO_PROPERTIES: Properties held in memory at once across all profiles (default 32). */
export function heldPropertiesCap(env: NodeJS.ProcessEnv): number {
  const raw = env.METERDATA_PORTFOLIO_PROPERTIES;
  if (raw === undefined || raw === '') return DEFAULT_HELD_PROPERTIES;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 4096) {
    throw new UsageError(t.heldInvalid({ raw }), t.heldInvalidHint({ cap: DEFAULT_HELD_PROPERTIES }), 'EXPORT_HELD_INVALID');
  }
  return Number(raw);
}

/**
 * Workbooks written at once, each in a worker of its own (about 60 MiB while it runs): one per
 * core, at most 4. Profiles of the same size finish their walks together, and written one
 * after another their workbooks were the run's tail (docs/export.md, "Portfolio").
 */
export function workbooksAtOnce(cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(4, cores));
}

/** The profiles to export, checked before any request. */
async function chooseProfiles(opts: Record<string, unknown>, io: Io): Promise<string[]> {
  const all = opts.allProfiles === true;
  const listed = typeof opts.profiles === 'string' ? opts.profiles : undefined;
  if (all && listed !== undefined) throw new UsageError(t.allAndList, t.allAndListHint);
  if (typeof opts.profile === 'string') throw new UsageError(t.withProfile({ flag: all ? '--all-profiles' : '--profiles' }), t.withProfileHint);
  if (io.env.METERDATA_ACCESS_TOKEN) throw new UsageError(t.staticToken, t.staticTokenHint, 'USAGE_STATIC_TOKEN_PORTFOLIO');
  let names: string[];
  if (all) {
    names = Object.keys(await loadProfiles(io.env)).sort();
    if (names.length === 0) throw new NotSignedInError(t.noneSignedIn, { hint: t.noneSignedInHint });
  } else {
    names = [
      ...new Set(
        listed!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    if (names.length === 0) throw new UsageError(t.emptyList, t.emptyListHint);
  }
  const lower = new Map<string, string>();
  for (const n of names) {
    resolveProfileName({ profile: n }, {});
    if (n.toLowerCase() === SUMMARY_FILE) throw new UsageError(t.summaryName({ name: n }), t.summaryNameHint);
    // its folder in the root would read as a single run's manifest or a month's letters, and every re-run be refused (round 27)
    if (reservedInPortfolio(n)) throw new UsageError(t.reservedName({ name: n }), t.summaryNameHint);
    // before any request: a twin found when its turn came had the first one exported already
    const twin = lower.get(n.toLowerCase());
    if (twin !== undefined) throw new UsageError(t.caseTwins({ a: twin, b: n }), t.caseTwinsHint, 'PROFILE_NAME_INVALID');
    lower.set(n.toLowerCase(), n);
  }
  return names;
}

/** An Io whose stderr lines go to the shared display, marked with the profile. */
function profileIo(io: Io, profile: string, display: PortfolioDisplay): Io {
  const stderr = new Writable({
    write(chunk: Buffer, _enc, done) {
      display.note(profile, chunk.toString('utf8'));
      done();
    },
  });
  return { ...io, stderr };
}

const YOUNG_MB = 8;
/**
 * The walks' worker: its young generation holds what P walks allocate between two
 * scavenges. At 8 MB, 16 walks spent 2.4 of the thread's 9 s of CPU in the collector,
 * most of it when their largest Properties ended together (bench/README.md, "P = 16").
 */
const WALKS_YOUNG_MB = 32;

/**
 * The built CLI runs the whole portfolio in one worker thread with the single export's heap
 * limits (young generation WALKS_YOUNG_MB, old space METERDATA_EXPORT_HEAP_MB): in the main thread V8
 * sized the heap of 16 concurrent walks from the machine's memory (heapTotal 58 MiB at P = 1,
 * 257 MiB at P = 16, with 37-57 MiB of it live). The workbooks are workers of that worker.
 */
export async function runPortfolio(opts: Record<string, unknown>, io: Io, job: JobName = 'export', now = new Date()): Promise<number> {
  const input: PortfolioInput = { job, opts, now: now.getTime() };
  const { isolationAvailable, runIsolated } = await import('../../core/isolate.js');
  if (!io.isolate || !isolationAvailable()) return portfolioHere(input, io);
  const { exportHeapMb } = await import('../single.js');
  const oldMb = exportHeapMb(io.env);
  const outOfMemory = () =>
    new MeterdataError(t.outOfMemory({ mb: oldMb }), {
      code: 'EXPORT_OUT_OF_MEMORY',
      exitCode: ExitCode.UNEXPECTED,
      hint: t.outOfMemoryHint({ mb: oldMb * 4 }),
    });
  return runIsolated<number>(new URL(import.meta.url), 'portfolioInWorker', input, {
    limits: { youngMb: WALKS_YOUNG_MB, oldMb },
    io,
    outOfMemory,
    onAbort: 'tell',
  });
}

/** What crosses into the portfolio's worker: the job by its name, the command's flags and clock. */
interface PortfolioInput {
  job: JobName;
  opts: Record<string, unknown>;
  now: number;
}

/** Worker side of runPortfolio: the workbooks go to workers of that worker (workbookWorkersFor). */
export function portfolioInWorker(input: PortfolioInput, io: Io): Promise<number> {
  return portfolioHere(input, { ...io, isolate: true });
}

/** Workers that write one workbook after another, one per core at most (workbook-workers.ts); null where the CLI does not isolate. */
async function workbookWorkersFor(io: Io) {
  const [{ isolationAvailable, runIsolated }, { exportHeapMb }, { workbookWorkers }] = await Promise.all([
    import('../../core/isolate.js'),
    import('../single.js'),
    loadWorkbookWorkers(),
  ]);
  const module = WORKBOOK_WORKERS_MODULE;
  if (!isolationAvailable()) return null;
  const oldMb = exportHeapMb(io.env);
  const outOfMemory = () =>
    new MeterdataError(t.workbookOutOfMemory({ mb: oldMb }), {
      code: 'EXPORT_OUT_OF_MEMORY',
      exitCode: ExitCode.UNEXPECTED,
      hint: t.workbookOutOfMemoryHint({ mb: oldMb * 4 }),
    });
  return workbookWorkers(workbooksAtOnce(), (port, { transfer }) =>
    runIsolated<void>(
      module,
      'serveWorkbooks',
      { port },
      { limits: { youngMb: YOUNG_MB, oldMb }, io, outOfMemory, onAbort: 'terminate', ...(transfer ? { transfer } : {}) },
    ),
  );
}

async function portfolioHere(input: PortfolioInput, io: Io): Promise<number> {
  const { opts } = input;
  const profiles = await chooseProfiles(opts, io);
  const job = await prepareJob(input.job, opts, io, new Date(input.now));
  const cap = heldPropertiesCap(io.env);
  // The root's lock (a single run's into that folder) for the whole run, taken before the checks of the folder: a single
  // run or another portfolio into it started at the same moment passed them as well, and both wrote into it.
  // A heartbeat finding the root taken over stops every profile at once (their runs see the reason on io.signal).
  const lost = new AbortController();
  const root = await lockOutFolder(dirs(io.env).state, job.out, (e) => lost.abort(e));
  try {
    // Before it starts (a refused profile's summary row went over the other's), with room for the folders it makes (W3).
    checkNotOtherCommand(job.out, input.job, 2 * profiles.length);
    const single = job.singleIn();
    if (single) throw new UsageError((job.words ?? t).singleInOut({ out: job.out, found: single }), t.singleInOutHint, 'EXPORT_OUT_IN_USE');
    // The summary goes there: an --out that cannot be written is the user's to fix (exit 2), before any profile starts,
    // not a failure of every profile followed by the summary's (a read-only disk: mkdir says ENOENT, a stack)
    await checkWritable(job.out);
    checkNoFolderAt(job.out, [SUMMARY_FILE]); // its rename failed after every profile, told as a bug (round 26)
    checkNotOthersIn(job.out, [SUMMARY_FILE]);
    const signal = AbortSignal.any([io.signal, lost.signal]);
    // Before each commit: the root still ours, and no run of the other command committed below it (round 32 F9, F10).
    const held = () => (Journal.checkHeld([root.inside]), checkNotOtherCommand(job.out, input.job));
    return await runProfiles(job, profiles, cap, { ...io, signal }, held);
  } finally {
    await root.unlock().catch(() => undefined);
  }
}

/** Every profile's run at once under the root's lock, then the summary; the worst exit code. */
async function runProfiles(job: PortfolioJob, profiles: string[], cap: number, io: Io, held: () => void): Promise<number> {
  const record = await FinishedRecord.open(dirs(io.env).state, job.recordKey);
  const display = createPortfolioDisplay(io, profiles, { quiet: job.quiet });
  const slots = new Slots(cap);
  const workbooks = new Slots(workbooksAtOnce());
  const workers = io.isolate && job.writesWorkbooks ? await workbookWorkersFor(io) : null;

  const one = async (profile: string): Promise<ProfileResult> => {
    const args = job.argsFor(profile);
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const kept = await keptResult(record, args, (await loadProfile(io.env, profile).catch(() => undefined))?.tenant_id);
      if (kept) return job.rejudge ? job.rejudge(args, kept) : kept;
      await job.check(args);
      const { summary, exitCode, error } = await job.run(args, profileIo(io, profile, display), {
        reporter: (requests) => display.reporter(profile, requests),
        slots,
        workbooks,
        held,
        ...(workers ? { writeWorkbook: workers.write, renderAhead: workers.ahead } : {}),
      });
      const result: ProfileResult = { profile, out: args.out, outcome: 'exported', exitCode, seconds: seconds(), summary, ...(error ? { error } : {}) };
      // Losing this note only costs a re-run of this profile; its files are complete.
      await record.add(result).catch((e: Error) => display.note(profile, t.notNoted({ why: e.message })));
      return result;
    } catch (e) {
      const { exitCode, error, stack } = describeFailure(e, io.signal);
      if (stack) display.note(profile, stack);
      return { profile, out: args.out, outcome: 'failed', exitCode, seconds: seconds(), error };
    }
  };

  const results = await Promise.all(
    profiles.map((p) =>
      one(p).then((r) => {
        display.finish(p, r.outcome === 'failed' ? t.stateFailed({ code: r.exitCode }) : r.outcome === 'kept' ? t.stateKept : t.stateDone);
        if (!job.quiet && !io.stderr.isTTY) display.note(null, profileLine(r, job.words));
        return r;
      }),
    ),
  );
  await workers?.close();
  display.close();
  return finish(job, results, record, io, held);
}

/** The summary file, the record of finished profiles, and what the run says at its end; the worst exit code. */
async function finish(
  base: Pick<PortfolioJob, 'out' | 'quiet' | 'json' | 'words'>,
  results: ProfileResult[],
  record: FinishedRecord,
  io: Io,
  held: () => void = () => undefined,
): Promise<number> {
  const summaryFile = path.join(base.out, SUMMARY_FILE);
  // What the profiles' lines and objects tell is printed even where the summary cannot be
  // written (a full disk at the end of a night): its failure follows them.
  // a portfolio paused past the 10-minute rule whose root another run took over (folder-lock.ts) writes no summary there
  const unwritten = await Promise.resolve()
    .then(held)
    .then(() => mkdir(base.out, { recursive: true }))
    .then(() => tidySummaryLeftovers(base.out))
    .then(() => writeFileAtomic(summaryFile, summaryCsv(results), { mode: 0o644 }))
    .then(
      () => null,
      (e: unknown) => diskProblem(located(e, summaryFile)) ?? e,
    );
  // Without the summary the record stays: the re-run keeps every finished profile and only writes it.
  if (!unwritten && results.every((r) => r.outcome !== 'failed')) {
    await record.clear().catch((e: Error) => io.stderr.write(t.notCleared({ why: e.message, file: record.file })));
  }
  // as the single export's object: a message or folder name with a control or bidi character is escaped
  if (base.json) for (const r of results) io.stdout.write(`${terminalSafeJson(profileJson(r))}\n`);
  const failed = results.filter((r) => r.outcome === 'failed');
  // --quiet: nothing but errors, so the failed profiles' lines still show.
  if (base.quiet) for (const r of failed) io.stderr.write(`${profileLine(r, base.words)}\n`);
  else {
    if (io.stderr.isTTY) for (const r of results) io.stderr.write(`${profileLine(r, base.words)}\n`);
    if (!unwritten)
      io.stderr.write(
        (base.words?.finished ?? t.finished)({
          done: results.length - failed.length,
          total: results.length,
          failed: failed.map((r) => r.profile).join(', '),
          summary: summaryFile,
        }),
      );
  }
  if (unwritten) throw unwritten;
  return worstExitCode(results.map((r) => r.exitCode));
}
