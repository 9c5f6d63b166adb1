// What the portfolio export reports per profile: a summary line on stderr, one JSON
// object per profile with --json, and portfolio-summary.csv in the --out folder. The
// exit status of the whole run is the worst of the profiles' (WORST_FIRST).
import { ExitCode, isMeterdataError } from '../core/errors.js';
import { terminalSafe } from '../core/terminal-text.js';
import { csvLine, neutraliseFormula } from './format.js';
import type { ExportSummary } from './run.js';
import { plural } from '../core/plural.js';

export const SUMMARY_FILE = 'portfolio-summary.csv';

/** A profile's result. `exported` this run, `kept` finished by an earlier run of the same portfolio export, or `failed`. */
export interface ProfileResult {
  profile: string;
  out: string;
  outcome: 'exported' | 'kept' | 'failed';
  exitCode: number;
  seconds: number;
  summary?: Omit<ExportSummary, 'files'> & { files?: ExportSummary['files'] };
  /** What went wrong (failed, or exit 6 of --strict). */
  error?: { code: string; message: string; hint?: string };
}

/**
 * Most severe first: an interrupted run says so (re-run it), a bug beats everything a
 * person can act on, then a usage error, withdrawn access, a lost sign-in, an
 * unavailable service, and --strict findings; 0 only when every profile exported.
 */
export const WORST_FIRST: number[] = [ExitCode.INTERRUPTED, ExitCode.UNEXPECTED, ExitCode.USAGE, ExitCode.ACCESS_WITHDRAWN, ExitCode.NOT_SIGNED_IN, ExitCode.UNAVAILABLE, ExitCode.NEEDS_REVIEW, ExitCode.OK];

export function worstExitCode(codes: number[]): number {
  const rank = (c: number) => (WORST_FIRST.includes(c) ? WORST_FIRST.indexOf(c) : 1);
  return codes.reduce((worst, c) => (rank(c) < rank(worst) ? c : worst), ExitCode.OK as number);
}

/** A failure as the summary shows it; an unclassified error is a bug (exit 1) and keeps its stack for the report. */
export function describeFailure(e: unknown, signal?: AbortSignal): { exitCode: number; error: { code: string; message: string; hint?: string }; stack?: string } {
  if (isMeterdataError(e)) return { exitCode: e.exitCode, error: { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) } };
  // Ctrl-C or SIGTERM while a profile was still signing in: an interruption, not a bug.
  if (signal?.aborted) return { exitCode: ExitCode.INTERRUPTED, error: { code: 'EXPORT_INTERRUPTED', message: 'Interrupted before the export of this profile started.', hint: 'Run the same command again to continue.' } };
  const err = e instanceof Error ? e : new Error(String(e));
  return { exitCode: ExitCode.UNEXPECTED, error: { code: 'UNEXPECTED', message: `unexpected failure (this is a bug; please report it): ${err.message}` }, ...(err.stack ? { stack: err.stack } : {}) };
}


/** One line a person reads: names and messages from the server reach the terminal escaped. */
export function profileLine(r: ProfileResult): string {
  return terminalSafe(profileText(r));
}

function profileText(r: ProfileResult): string {
  const head = `profile ${r.profile}:`;
  if (r.outcome === 'failed' || !r.summary) return `${head} failed (exit ${r.exitCode}, ${r.error?.code}): ${r.error?.message}${r.error?.hint ? ` ${r.error.hint}` : ''}`;
  const s = r.summary;
  const what = r.outcome === 'kept' ? 'exported by the earlier run, kept' : `exported in ${r.seconds.toFixed(1)}s`;
  const strict = r.exitCode === ExitCode.NEEDS_REVIEW ? ` (--strict: exit 6)` : '';
  return `${head} ${what}${strict}: "${s.tenant}", ${plural(s.counts.properties, 'Property')}, ${plural(s.counts.units, 'unit')}, flags ${s.flags.not_billed} not billed, ${s.flags.review} to review, ${s.flags.info} info, ${plural(s.requests, 'request')} -> ${r.out}`;
}

export function profileJson(r: ProfileResult): Record<string, unknown> {
  const s = r.summary;
  return {
    profile: r.profile,
    outcome: r.outcome,
    exit_code: r.exitCode,
    out: r.out,
    seconds: Number(r.seconds.toFixed(3)),
    ...(s ? { tenant: s.tenant, range: s.range, requested_range: s.requested, exported_at: s.exportedAt, resumed: s.resumed, counts: s.counts, flags: s.flags, flag_codes: s.codes, requests: s.requests, ...(s.files ? { files: s.files } : {}) } : {}),
    ...(r.error ? { error: r.error } : {}),
  };
}

const COLUMNS = ['profile', 'outcome', 'exit_code', 'error_code', 'tenant', 'properties', 'units', 'flags_not_billed', 'flags_review', 'flags_info', 'requests', 'seconds', 'out', 'message', 'hint'];

/** portfolio-summary.csv: one row per profile in the order given, comma-separated, CRLF (as the generic layout). */
export function summaryCsv(results: ProfileResult[]): string {
  const rows = results.map((r) => {
    const s = r.summary;
    const n = (v: number | undefined) => (v === undefined ? '' : String(v));
    // text cells neutralised like every other CSV file's (a tenant name from the server could start with "=")
    const t = neutraliseFormula;
    return [t(r.profile), r.outcome, String(r.exitCode), t(r.error?.code ?? ''), t(s?.tenant ?? ''), n(s?.counts.properties), n(s?.counts.units), n(s?.flags.not_billed), n(s?.flags.review), n(s?.flags.info), n(s?.requests), r.seconds.toFixed(1), t(r.out), t(r.error?.message ?? ''), t(r.error?.hint ?? '')];
  });
  return [COLUMNS, ...rows].map((f) => csvLine(f, ',', '\r\n')).join('');
}
