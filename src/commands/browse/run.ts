// `meterdata browse`: the clerks' terminal UI. Ink and React load only here, and
// only after the checks that need no terminal, so `--help` and errors stay light.
import { ExitCode, UsageError } from '../../core/errors.js';
import { idTag } from '../../core/id-tag.js';
import path from 'node:path';
import type { ApiClient } from '../../api/contracts.js';
import type { ExportSelection } from '../../tui/data.js';
import { periodFlags } from '../../export/options/index.js';
import { defaultRange, rangeFlags } from '../../tui/range.js';
import { t } from '../../tui/texts.js';
import { language, type Lang } from '../../i18n/index.js';
import type { ExportFlags } from '../../export/options/index.js';
import type { CommandContext } from '../context.js';
import type { BrowseFlags } from './index.js';

export async function run(opts: BrowseFlags, ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  // The same flags as export, read by the same code: the same messages, naming the flag.
  const named = periodFlags(opts);
  const range = named ?? defaultRange(ctx.now());
  // checked before the terminal, as uvi checks them: a bad file is one line and exit 2, not a screen
  const { parseUviSettings } = await import('../../uvi/inputs/index.js');
  const uviSettings = parseUviSettings(opts, io.cwd);
  if (!io.stdout.isTTY || !io.stdin.isTTY) {
    throw new UsageError(t.notATerminal, t.notATerminalHint({ flags: rangeFlags(range) }), 'USAGE_NOT_A_TERMINAL');
  }
  const [billing, { createBrowseData, eventHub }, { runBrowser }] = await Promise.all([
    import('../../billing/index.js'),
    import('../../tui/data.js'),
    import('../../tui/run.js'),
  ]);
  const connection = await ctx.connect(typeof opts.profile === 'string' ? { profile: opts.profile } : {});
  const hub = eventHub();
  const api = connection.api({ onEvent: hub.emit });
  const profile = typeof opts.profile === 'string' ? opts.profile : undefined;
  const data = createBrowseData({
    api,
    billProperty: billing.billProperty,
    flagText: billing.flagText,
    subscribe: hub.subscribe,
    exportSelection: (s, onNote) => exportFromBrowser(s, { api, io, profile, onNote }),
    currentToken: () => connection.credentials.currentToken(),
    uviSettings,
  });
  let how: 'quit' | 'interrupted';
  try {
    how = await runBrowser(io, data, range, { rangeChosen: named !== null, today: ctx.now() });
  } finally {
    await api.close();
    await connection.close();
  }
  return how === 'interrupted' ? ExitCode.INTERRUPTED : ExitCode.OK;
}

/** A folder-name part: ASCII letters, digits, dot and dash. */
function slug(text: string, fallback: string): string {
  return (
    text
      .replace(/ß/g, 'ss')
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '') || fallback
  );
}

/**
 * The export flags of what the screen shows: its range and comparison (`y 2025 vs 2024`
 * writes plausibility.csv, as `export --compare 2024` does), the layout of its language
 * (`de` in a German run: the screen's words, semicolons and decimal commas) and a folder
 * named after all of it, so an export with a comparison never meets one without in the
 * same folder.
 */
export function browseExportFlags(s: ExportSelection, lang: Lang, profile: string | undefined): ExportFlags {
  // Two units of one name ("EG links" in two entrances, "WE 1/2" and "WE 1-2") never share a folder.
  const unitPart = s.unitId ? `-${slug(s.unitName ?? '', 'unit')}-${idTag(s.unitId)}` : '';
  const c = s.range.compare;
  const vsPart = c ? `-vs-${c.from}_${c.to}` : '';
  const out = `meterdata-${s.range.from}_${s.range.to}-${slug(s.property.name, s.property.id)}${unitPart}${vsPart}`;
  return {
    from: s.range.from,
    to: s.range.to,
    property: [s.property.id],
    out,
    quiet: true,
    profile,
    template: lang === 'de' ? 'de' : 'generic',
    ...(s.unitId ? { unit: s.unitId } : {}),
    ...(c ? { compareFrom: c.from, compareTo: c.to } : {}),
  };
}

/**
 * `e` in the browser: the export command's own run (journal, writers, atomic rename)
 * for the selected Property, over the browser's paced client and without progress
 * output, which would scribble over the screen. On a unit screen the Property is
 * billed and reviewed whole, as the screen bills it, then only that unit's rows are
 * written (billing, segments, readings, review; no plant-room meters), into a folder
 * named after the unit and the start of its id's hash.
 */
async function exportFromBrowser(
  s: ExportSelection,
  ctx: { api: ApiClient; io: CommandContext['io']; profile: string | undefined; onNote?: (line: string) => void },
): Promise<string> {
  const [{ exportDeps, prepareExport }, { runExport }, { createReporter }] = await Promise.all([
    import('../../export/single.js'),
    import('../../export/run.js'),
    import('../../export/progress.js'),
  ]);
  const opts = browseExportFlags(s, language(), ctx.profile);
  const { args, template } = await prepareExport(opts, ctx.io);
  // nothing may write past Ink, but a note (resuming, a wait for another run's commit of up to 12 minutes) goes to the status line
  const quiet = createReporter(ctx.io, { quiet: true, requests: () => ctx.api.stats().requests });
  const reporter = { ...quiet, note: (line: string) => ctx.onNote?.(line) };
  const summary = await runExport(exportDeps({ api: ctx.api, args, template, reporter, io: ctx.io }));
  const where = path.relative(ctx.io.cwd, summary.out);
  const shown = where && !where.startsWith('..') && !path.isAbsolute(where) ? `./${where}` : summary.out;
  return t.exportedFiles({ n: summary.files.length, where: shown });
}
