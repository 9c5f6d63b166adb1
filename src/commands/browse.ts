// `meterdata browse`: the clerks' terminal UI. Ink and React load only here, and
// only after the checks that need no terminal, so `--help` and errors stay light.
import { UsageError } from '../core/errors.js';
import type { Io } from '../core/io.js';
import path from 'node:path';
import type { ApiClient } from '../api/contracts.js';
import { dirs } from '../core/paths.js';
import type { ExportSelection } from '../tui/data.js';
import { rangeFlags, rangeFromFlags } from '../tui/range.js';

export async function run(opts: Record<string, unknown>, io: Io): Promise<number> {
  const parsed = rangeFromFlags(opts, new Date());
  if (!parsed.ok) throw new UsageError(parsed.message, 'e.g. meterdata browse --year 2025');
  if (!io.stdout.isTTY || !io.stdin.isTTY) {
    throw new UsageError(
      '`meterdata browse` is interactive and needs a terminal, but its input or output is redirected.',
      `For files or scripts use: meterdata export ${rangeFlags(parsed.range)}`,
      'USAGE_NOT_A_TERMINAL',
    );
  }
  const [{ openConnection }, { createApiClient }, billing, { createBrowseData, eventHub }, { runBrowser }] = await Promise.all([
    import('../auth/connection.js'),
    import('../api/client.js'),
    import('../billing/index.js'),
    import('../tui/data.js'),
    import('../tui/run.js'),
  ]);
  const connection = await openConnection({ ...(typeof opts.profile === 'string' ? { profile: opts.profile } : {}), env: io.env, signal: io.signal });
  const hub = eventHub();
  const api = createApiClient({ baseUrl: connection.baseUrl, credentials: connection.credentials, onEvent: hub.emit, signal: io.signal });
  const profile = typeof opts.profile === 'string' ? opts.profile : undefined;
  const data = createBrowseData({
    api,
    billProperty: billing.billProperty,
    flagText: billing.flagText,
    subscribe: hub.subscribe,
    exportSelection: (s) => exportFromBrowser(s, { api, io, profile }),
    currentToken: () => connection.credentials.currentToken(),
  });
  try {
    await runBrowser(io, data, parsed.range);
  } finally {
    await api.close();
  }
  return 0;
}

/**
 * `e` in the browser: the export command's own run (journal, writers, atomic rename)
 * for the selected Property, over the browser's paced client and without progress
 * output, which would scribble over the screen. The export covers whole Properties,
 * so a unit is exported with its Property.
 */
async function exportFromBrowser(s: ExportSelection, ctx: { api: ApiClient; io: Io; profile: string | undefined }): Promise<string> {
  const [{ prepareExport, toolVersion }, { runExport }, { createReporter }] = await Promise.all([
    import('./export.js'),
    import('../export/run.js'),
    import('../export/progress.js'),
  ]);
  const slug = s.property.name.replace(/ß/g, 'ss').normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || s.property.id;
  const opts = { from: s.range.from, to: s.range.to, property: [s.property.id], out: `meterdata-${s.range.from}_${s.range.to}-${slug}`, quiet: true, profile: ctx.profile };
  const { args, template } = await prepareExport(opts, ctx.io);
  const reporter = createReporter(ctx.io, { quiet: true, requests: () => ctx.api.stats().requests });
  const summary = await runExport({ api: ctx.api, args, template, stateDir: dirs(ctx.io.env).state, reporter, toolVersion: toolVersion(), signal: ctx.io.signal });
  const where = path.relative(ctx.io.cwd, summary.out);
  const shown = where && !where.startsWith('..') && !path.isAbsolute(where) ? `./${where}` : summary.out;
  return `${summary.files.length} files in ${shown}`;
}
