// What a finished export says: the summary lines on stderr (stdout for the demo), the
// --json object, and the --strict failure.
import { ExitCode, MeterdataError } from '../core/errors.js';
import { terminalSafeJson } from '../core/terminal-text.js';
import { plural, pluralWord } from '../core/plural.js';
import { findingsPlace } from './output.js';
import type { ExportSummary } from './run.js';
import type { Template } from './templates.js';

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
