// What the portfolio (portfolio.ts) runs for each profile: the export's job (export-job.ts) or
// the monthly information's (src/export/uvi-job.ts). Both are ordinary single-profile runs into
// <out>/<profile>/…; the portfolio adds the profiles, the display, the record, the summary and the
// exit code. A job crosses into the portfolio's worker thread by its name, not as a function.
import type { Io } from '../../core/io.js';
import type { Failure } from '../../core/errors.js';
import type { ExportArgs } from '../options/index.js';
import type { Slots } from '../pipeline/index.js';
import type { Reporter } from '../progress.js';
import type { ExportSummary } from '../run.js';
import type { Shared } from '../single.js';
import type { ProfileResult, ProfileWords } from './portfolio-summary.js';

export type JobName = 'export' | 'uvi';

/** What the portfolio shares with each profile's run: its display's reporter, the Properties held and the workbooks written at once. */
export type ProfileShared = Shared & { reporter: (requests: () => number) => Reporter; slots: Slots; workbooks: Slots };

/** A profile's run: its summary, and the exit code with its reason where it is not 0 (--strict). */
export interface JobOutcome {
  summary: ExportSummary;
  exitCode: number;
  error?: Failure['error'];
}

/** One command's flags, checked once before any profile starts. */
export interface PortfolioJob {
  /** The portfolio's folder: the profiles' folders and portfolio-summary.csv go below it. */
  out: string;
  quiet: boolean;
  json: boolean;
  /** What a single-profile run of the same command left in --out (singleRunIn), if anything: the portfolio does not go beside it. */
  singleIn(): string | null;
  /** Identifies the same portfolio run again (the record of finished profiles). */
  recordKey: unknown;
  /** Whether its profiles write workbooks (the portfolio then starts the workbook workers). */
  writesWorkbooks: boolean;
  /** A profile's arguments: its folder below `out`, its identity. */
  argsFor(profile: string): ExportArgs;
  /** The profile's folder checked before its run (ownership, the files it will hold). */
  check(args: ExportArgs): Promise<void>;
  run(args: ExportArgs, io: Io, shared: ProfileShared): Promise<JobOutcome>;
  /** A kept result's exit as this run's flags give it (--strict), when they can change it. */
  rejudge?(args: ExportArgs, kept: ProfileResult): ProfileResult;
  /** The lines after each profile and after the run in the job's own words; none: the export's. */
  words?: ProfileWords & {
    finished: (p: { done: number; total: number; failed: string; summary: string }) => string;
    /** --out holds what a single-profile run of this command wrote there. */
    singleInOut: (p: { out: string; found: string }) => string;
  };
}

/** The named job's flags checked; `now` is the command's clock (a month default, a future month). */
export async function prepareJob(name: JobName, opts: Record<string, unknown>, io: Io, now: Date): Promise<PortfolioJob> {
  if (name === 'uvi') return (await import('../uvi-job.js')).uviJob(opts, io, now);
  return (await import('./export-job.js')).exportJob(opts, io);
}
