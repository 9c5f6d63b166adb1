// `meterdata export`: flags, template and out folder are checked before any request;
// then sign-in, the walk and the files (src/export). Exit 0 also when values were not
// billed or need review (they are listed in review.csv); with --strict such a run
// ends with exit 6 (code EXPORT_FLAGS_STRICT) after all files were written.
import { readFileSync } from 'node:fs';
import { ExitCode, MeterdataError } from '../core/errors.js';
import type { Io } from '../core/io.js';
import { dirs } from '../core/paths.js';
import { fixedExportTime, identity, parseExportArgs, type ExportArgs } from '../export/options.js';
import { checkOutDir, finalNames } from '../export/output.js';
import { createReporter } from '../export/progress.js';
import type { ExportSummary } from '../export/run.js';
import { loadTemplate } from '../export/templates.js';

export function toolVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function summaryText(s: ExportSummary): string {
  const files = s.files.map((f) => (f.rows === undefined ? f.name : `${f.name} (${plural(f.rows, 'row')})`)).join(', ');
  const c = s.counts;
  return [
    `wrote ${s.out} for ${s.range.from} to ${s.range.to}: ${files}`,
    `${plural(c.properties, 'Property', 'Properties')}, ${plural(c.units, 'unit')}, ${plural(c.measuring_points, 'measuring point')} (${c.plant_points} plant-room/main), ${plural(s.requests, 'request')}${s.resumed ? ', resumed' : ''}`,
    `flags: ${s.flags.not_billed} not billed, ${s.flags.review} to review, ${s.flags.info} info${s.flags.not_billed + s.flags.review ? ' (see review.csv)' : ''}`,
  ].join('\n');
}

export function summaryJson(s: ExportSummary): string {
  return JSON.stringify({
    out: s.out,
    files: s.files,
    range: s.range,
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
  await checkOutDir(args.out, identity(args), finalNames(template, args.formats));
  return { args, template };
}

export async function exportWith(args: ExportArgs, template: Awaited<ReturnType<typeof loadTemplate>>, io: Io, conn: { baseUrl: string; credentials: import('../core/credentials.js').Credentials }): Promise<ExportSummary> {
  const [{ createApiClient }, { runExport }] = await Promise.all([import('../api/client.js'), import('../export/run.js')]);
  const api = createApiClient({ baseUrl: conn.baseUrl, credentials: conn.credentials, rateLimitPerMinute: args.rateLimit, signal: io.signal });
  const reporter = createReporter(io, { quiet: args.quiet, requests: () => api.stats().requests });
  const fixed = fixedExportTime(io.env);
  try {
    return await runExport({ api, args, template, stateDir: dirs(io.env).state, reporter, toolVersion: toolVersion(), signal: io.signal, ...(fixed ? { now: () => fixed } : {}) });
  } finally {
    await api.close();
  }
}

export async function run(opts: Record<string, unknown>, io: Io): Promise<number> {
  const { args, template } = await prepareExport(opts, io);
  const { openConnection } = await import('../auth/connection.js');
  const conn = await openConnection({ profile: args.profile, env: io.env, signal: io.signal, ...(args.quiet ? {} : { warn: (l: string) => io.stderr.write(l) }) });
  const summary = await exportWith(args, template, io, conn);
  if (args.json) io.stdout.write(`${summaryJson(summary)}\n`);
  if (!args.quiet) io.stderr.write(`${summaryText(summary)}\n`);
  const attention = summary.flags.not_billed + summary.flags.review;
  if (args.strict && attention > 0) {
    throw new MeterdataError(`--strict: ${plural(attention, 'finding')} need attention (${summary.flags.not_billed} not billed, ${summary.flags.review} to review); the files were written.`, {
      code: 'EXPORT_FLAGS_STRICT',
      exitCode: ExitCode.NEEDS_REVIEW,
      hint: `See review.csv in ${summary.out}.`,
    });
  }
  return ExitCode.OK;
}
