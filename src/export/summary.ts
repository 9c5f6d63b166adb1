// What a finished export says: the summary lines on stderr (stdout for the demo), the
// --json object, and the --strict failure.
import { describeError, ExitCode, MeterdataError } from '../core/errors.js';
import { terminalSafeJson } from '../core/terminal-text.js';
import { findingsPlace, type Template } from './output/index.js';
import type { ExportSummary } from './run.js';
import { summaryWords as t } from './texts-summary.js';

/** A line of its own where the service answered for less than was asked, or where nothing had values. */
function rangeLines(s: ExportSummary, see: string): string[] {
  const lines: string[] = [];
  if (s.range.to < s.requested.to || s.range.from !== s.requested.from) {
    lines.push(t.shortened({ askedFrom: s.requested.from, askedTo: s.requested.to, from: s.range.from, to: s.range.to }));
  }
  if (s.pointsWithData === 0) {
    const points = s.counts.measuring_points;
    lines.push(points ? t.noValues({ points, from: s.range.from, to: s.range.to, see }) : t.noPoints);
  }
  return lines;
}

export function summaryText(s: ExportSummary, template: Pick<Template, 'files'>): string {
  const place = findingsPlace(s, template);
  const see = place ? t.see({ place }) : '';
  const files = s.files.map((f) => (f.rows === undefined ? f.name : t.fileRows({ name: f.name, rows: f.rows }))).join(', ');
  const c = s.counts;
  return [
    t.wrote({ out: s.out, from: s.range.from, to: s.range.to, files }),
    ...rangeLines(s, see),
    `${t.counts({ properties: c.properties, units: c.units, points: c.measuring_points, plant: c.plant_points, requests: s.requests })}${s.resumed ? t.resumed : ''}`,
    `${t.flags({ notBilled: s.flags.not_billed, review: s.flags.review, info: s.flags.info })}${s.flags.not_billed + s.flags.review ? see : ''}`,
  ].join('\n');
}

/** The --json object; with --strict's failure it carries that failure as a failed command's object does. */
export function summaryJson(s: ExportSummary, failure?: MeterdataError | null): string {
  const failed = failure ? describeError(failure) : null;
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
    exit_code: failed ? failed.exitCode : ExitCode.OK,
    ...(failed ? { error: failed.error } : {}),
  });
}

/** What `--strict` reports when values were not billed or need review; null when none do. */
export function strictFailure(summary: ExportSummary, template: Pick<Template, 'files'>): MeterdataError | null {
  const attention = summary.flags.not_billed + summary.flags.review;
  if (attention === 0) return null;
  return new MeterdataError(t.strict({ n: attention, notBilled: summary.flags.not_billed, review: summary.flags.review }), {
    code: 'EXPORT_FLAGS_STRICT',
    exitCode: ExitCode.NEEDS_REVIEW,
    hint: t.strictHint({ place: findingsPlace(summary, template) ?? t.theFiles, out: summary.out }),
  });
}
