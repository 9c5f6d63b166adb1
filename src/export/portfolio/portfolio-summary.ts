// What the portfolio export reports per profile: a summary line on stderr, one JSON
// object per profile with --json, and portfolio-summary.csv in the --out folder. The
// exit status of the whole run is the worst of the profiles' (WORST_FIRST).
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { describeError, ExitCode, isMeterdataError, type Failure } from '../../core/errors.js';
import { processAlive } from '../../core/pid.js';
import { terminalSafe } from '../../core/terminal-text.js';
import { takenOverReason } from '../journal/index.js';
import { csvLine, neutraliseFormula } from '../output/index.js';
import type { ExportSummary } from '../run.js';
import { portfolioText as t } from '../texts-summary.js';

export { PORTFOLIO_SUMMARY as SUMMARY_FILE } from '../folder/index.js';

/** A profile's result. `exported` this run, `kept` finished by an earlier run of the same portfolio export, or `failed`. */
export interface ProfileResult {
  profile: string;
  out: string;
  outcome: 'exported' | 'kept' | 'failed';
  exitCode: number;
  seconds: number;
  summary?: Omit<ExportSummary, 'files'> & { files?: ExportSummary['files'] };
  /** What went wrong (failed, or exit 6 of --strict). */
  error?: Failure['error'];
}

/**
 * Most severe first: an interrupted run says so (re-run it), a bug beats everything a
 * person can act on, then a usage error, withdrawn access, a lost sign-in, an
 * unavailable service, and --strict findings; 0 only when every profile exported.
 */
export const WORST_FIRST: number[] = [
  ExitCode.INTERRUPTED,
  ExitCode.UNEXPECTED,
  ExitCode.USAGE,
  ExitCode.ACCESS_WITHDRAWN,
  ExitCode.NOT_SIGNED_IN,
  ExitCode.UNAVAILABLE,
  ExitCode.NEEDS_REVIEW,
  ExitCode.OK,
];

export function worstExitCode(codes: number[]): number {
  const rank = (c: number) => (WORST_FIRST.includes(c) ? WORST_FIRST.indexOf(c) : 1);
  return codes.reduce((worst, c) => (rank(c) < rank(worst) ? c : worst), ExitCode.OK as number);
}

/** A failure as the summary shows it (core's describeError); an interruption before the profile started is no bug. */
export function describeFailure(e: unknown, signal?: AbortSignal): Failure {
  // The root taken over stopped every profile: one still signing in was no Ctrl-C (130), it lost the folder.
  const lost = takenOverReason(signal);
  if (lost) return describeError(lost);
  // Ctrl-C or SIGTERM while a profile was still signing in (waiting for its refresh lock: the signal's own
  // INTERRUPTED): an interruption, not a bug, with the code the walking profiles get (round 26: two codes, one signal).
  if ((!isMeterdataError(e) || e.code === 'INTERRUPTED') && signal?.aborted)
    return { exitCode: ExitCode.INTERRUPTED, error: { code: 'EXPORT_INTERRUPTED', message: t.interrupted, hint: t.interruptedHint } };
  return describeError(e);
}

/** One line a person reads: names and messages from the server reach the terminal escaped. */
/** A finished or kept profile's line in a job's own words (the export's by default). */
export type ProfileWords = Pick<typeof t, 'exported' | 'kept'>;

export function profileLine(r: ProfileResult, words: ProfileWords = t): string {
  return terminalSafe(profileText(r, words));
}

function profileText(r: ProfileResult, words: ProfileWords): string {
  if (r.outcome === 'failed' || !r.summary) {
    return `${t.failed({ profile: r.profile, exit: r.exitCode, code: String(r.error?.code), message: String(r.error?.message) })}${r.error?.hint ? ` ${r.error.hint}` : ''}`;
  }
  const s = r.summary;
  const strict = r.exitCode === ExitCode.NEEDS_REVIEW ? t.strictExit : '';
  const p = {
    profile: r.profile,
    strict,
    tenant: s.tenant,
    properties: s.counts.properties,
    units: s.counts.units,
    notBilled: s.flags.not_billed,
    review: s.flags.review,
    info: s.flags.info,
    requests: s.requests,
    out: r.out,
  };
  return r.outcome === 'kept' ? words.kept(p) : words.exported({ ...p, seconds: r.seconds.toFixed(1) });
}

export function profileJson(r: ProfileResult): Record<string, unknown> {
  const s = r.summary;
  return {
    profile: r.profile,
    outcome: r.outcome,
    exit_code: r.exitCode,
    out: r.out,
    seconds: Number(r.seconds.toFixed(3)),
    ...(s
      ? {
          tenant: s.tenant,
          range: s.range,
          requested_range: s.requested,
          exported_at: s.exportedAt,
          resumed: s.resumed,
          counts: s.counts,
          flags: s.flags,
          flag_codes: s.codes,
          requests: s.requests,
          ...(s.files ? { files: s.files } : {}),
        }
      : {}),
    ...(r.error ? { error: r.error } : {}),
  };
}

const COLUMNS = [
  'profile',
  'outcome',
  'exit_code',
  'error_code',
  'tenant',
  'properties',
  'units',
  'flags_not_billed',
  'flags_review',
  'flags_info',
  'requests',
  'seconds',
  'out',
  'message',
  'hint',
];

/**
 * portfolio-summary.csv: one row per profile in the order given, comma-separated, CRLF (as the generic layout).
 * Column names, outcome and error codes are what scripts match on, the same in both languages; message and
 * hint are the texts a person reads, in the run's language.
 */
export function summaryCsv(results: ProfileResult[]): string {
  const rows = results.map((r) => {
    const s = r.summary;
    const n = (v: number | undefined) => (v === undefined ? '' : String(v));
    // text cells neutralised like every other CSV file's (a tenant name from the server could start with "=")
    const safe = neutraliseFormula;
    return [
      safe(r.profile),
      r.outcome,
      String(r.exitCode),
      safe(r.error?.code ?? ''),
      safe(s?.tenant ?? ''),
      n(s?.counts.properties),
      n(s?.counts.units),
      n(s?.flags.not_billed),
      n(s?.flags.review),
      n(s?.flags.info),
      n(s?.requests),
      r.seconds.toFixed(1),
      safe(r.out),
      safe(r.error?.message ?? ''),
      safe(r.error?.hint ?? ''),
    ];
  });
  return [COLUMNS, ...rows].map((f) => csvLine(f, ',', '\r\n')).join('');
}

/** writeFileAtomic's temporary name for the summary (src/core/atomic-file.ts): `.portfolio-summary.csv.<pid>.<ms>.<random>.tmp`. */
const SUMMARY_TEMPORARY = /^\.portfolio-summary\.csv\.(\d+)\.\d+\.[a-z0-9]*\.tmp$/;

/** Removes the summary's temporary files a killed run left in the root (round 32 F11: they stayed for good); a live run's stay. */
export async function tidySummaryLeftovers(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const n of names) {
    const m = SUMMARY_TEMPORARY.exec(n);
    if (m && Number(m[1]) !== process.pid && !processAlive(Number(m[1]))) await rm(path.join(dir, n), { force: true }).catch(() => undefined);
  }
}
