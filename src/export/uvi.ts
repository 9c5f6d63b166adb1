// `meterdata uvi` on the export's machinery: its flags read into the export's arguments (the
// 13 months as the range, heating, warm and cold water as the metrics, <out>/<month>/ as the
// folder), the driver (pipeline/) run with the monthly information's steps (steps/uvi/), and
// every file committed at once with a manifest (finishExport), as an export is.
import path from 'node:path';
import { ExitCode, UsageError } from '../core/errors.js';
import type { Io } from '../core/io.js';
import { terminalSafeJson } from '../core/terminal-text.js';
import { language } from '../i18n/index.js';
import { monthEnd } from '../uvi/months.js';
import { parseUviInputs, type UviInputs } from '../uvi/inputs/index.js';
import { fixedExportTime, identity, parseExportArgs, type ExportArgs } from './options/index.js';
import { checkNotLinked, checkOutDir } from './folder/index.js';
import { loadTemplate, type Template } from './output/index.js';
import { finishExport, stagePipeline, type ExportDeps, type ExportSummary, type StagedExport } from './pipeline/index.js';
import { createReporter, type Reporter } from './progress.js';
import { exportConnection, isolation, waitNote, withExportDeps, type Connect, type Shared } from './single.js';
import { uviFindings, uviFormats, uviSteps, uviTemplate, type UviCounts } from './steps/index.js';
import { uviRunTexts as t } from './texts-uvi.js';

/** The command's flags as src/commands/uvi/index.ts declares them. */
export interface UviFlags {
  month?: string;
  profile?: string;
  property?: string[];
  out?: string;
  template?: string;
  rateLimit?: number | string;
  json?: boolean;
  quiet?: boolean;
  benchmark?: string;
  wwTemperature?: string;
  unitRefs?: string;
  plantMeters?: string;
}

export interface UviRun {
  args: ExportArgs;
  inputs: UviInputs;
  layout: 'generic' | 'de';
  template: Template;
}

/** Outdoor water is never part of the information (issue 24, "Scope"). */
const METRICS = 'heat,hca,water_warm,water_cold';

/** Every flag checked before any request, the month first, and the out folder; throws UsageError (exit 2). */
export async function prepareUvi(opts: UviFlags, io: Io, now = new Date()): Promise<UviRun> {
  const run = await parseUvi(opts, io, now);
  await checkUviOut(run);
  return run;
}

/** The flags read into a run into `<out>/<month>/` (`<out>` is --out, else ./meterdata-uvi); the folder itself is not looked at. */
export async function parseUvi(opts: UviFlags, io: Io, now = new Date()): Promise<UviRun> {
  const inputs = parseUviInputs(opts, io.cwd, now);
  const layout = opts.template ?? 'generic';
  if (layout !== 'generic' && layout !== 'de') throw new UsageError(t.template({ value: layout }), t.templateHint, 'EXPORT_TEMPLATE_INVALID');
  const out = path.join(uviRoot(opts, io), inputs.month);
  const args = parseExportArgs(
    {
      profile: opts.profile,
      from: `${inputs.months[0]}-01`,
      to: monthEnd(inputs.month),
      property: opts.property,
      metric: METRICS,
      format: 'csv',
      out,
      template: `uvi-${layout}`,
      rateLimit: opts.rateLimit,
      json: opts.json,
      quiet: opts.quiet,
      plausibility: false,
      unitRefs: opts.unitRefs,
    },
    io.cwd,
    io.env,
    now,
  );
  fixedExportTime(io.env);
  // The export's layout (separator, decimals) under the monthly information's own tables (its step's template).
  const template = await loadTemplate(layout, io.cwd);
  return { args, inputs, layout, template };
}

/** The folder the month's folder goes into: --out, else ./meterdata-uvi. */
export function uviRoot(opts: UviFlags, io: Io): string {
  return path.resolve(io.cwd, opts.out ?? 'meterdata-uvi');
}

/** The run's folder is ours or new, and none of its files is there from elsewhere (the export's ownership check). */
/** The files a run of the monthly information writes under fixed names (the letters' names depend on the units). */
export function uviNames(run: Pick<UviRun, 'template' | 'layout'>): string[] {
  return uviFormats(async () => Promise.reject(new Error('no letter before the walk'))).flatMap((f) => f.finalNames(uviTemplate(run.template, run.layout)));
}

export async function checkUviOut(run: UviRun): Promise<void> {
  const names = uviNames(run);
  checkNotLinked(path.dirname(run.args.out), run.args.out); // the month's folder is meterdata's
  await checkOutDir(run.args.out, identity(run.args), names, {});
}

/** The portfolio's display and the Properties it holds across profiles (src/export/uvi-job.ts). */
export type UviShared = Pick<Shared, 'reporter' | 'slots' | 'held'>;

export interface UviSummary extends ExportSummary, Pick<UviCounts, 'letters' | 'incomplete'> {
  month: string;
}

/** What a run's staging hands back, across the worker thread too: the staged files and the letters' counts. */
export interface StagedUvi {
  staged: StagedExport;
  letters: number;
  incomplete: number;
}

/**
 * The walk, the computation and every file, committed at once (or nothing, with the journal
 * kept for a re-run). The built CLI stages in a worker thread with the export's heap limits
 * (single.ts, isolation), the commit happens here; a portfolio's profile stages in this thread.
 */
export async function runUvi(run: UviRun, io: Io, open?: Connect, shared: UviShared = {}): Promise<UviSummary> {
  const { isolationAvailable } = await import('../core/isolate.js');
  const isolated = io.isolate === true && isolationAvailable() && !shared.reporter && !shared.slots;
  const staged = isolated ? await stageIsolated(run, io) : await stageUvi(run, io, await connectUvi(run, io, open), shared);
  const note = shared.reporter ? {} : waitNote(run.args, io);
  const summary = await finishExport(staged.staged, { signal: io.signal, ...note, ...(shared.held ? { held: shared.held } : {}) });
  return { ...summary, month: run.inputs.month, letters: staged.letters, incomplete: staged.incomplete };
}

async function connectUvi(run: UviRun, io: Io, open?: Connect) {
  const options = exportConnection(run.args, io);
  if (open) return open(options);
  const { openConnection } = await import('../auth/connection.js');
  return openConnection({ ...options, env: io.env, signal: io.signal });
}

async function stageIsolated(run: UviRun, io: Io): Promise<StagedUvi> {
  const { runIsolated } = await import('../core/isolate.js');
  const { limits, outOfMemory } = isolation(run.args, io, { memory: t.memory, memoryHint: t.memoryHint });
  return runIsolated<StagedUvi>(new URL(import.meta.url), 'stageUviInWorker', { run }, { limits, io, outOfMemory: outOfMemory('fetching') });
}

/** Worker side of the built CLI's run (see runUvi): its own connection, the walk, the computation and the files under temporary names. */
export async function stageUviInWorker(input: { run: UviRun }, io: Io): Promise<StagedUvi> {
  return stageUvi(input.run, io, await connectUvi(input.run, io), {});
}

async function stageUvi(run: UviRun, io: Io, conn: Awaited<ReturnType<Connect>>, shared: UviShared): Promise<StagedUvi> {
  const lang = language();
  const steps = uviSteps(run.args, { inputs: run.inputs, layout: run.layout, lang });
  const counts = steps[0]!.counts;
  // A Property's line counts its lines in review.csv: billing's findings of the 13 months are in no file of this run.
  const reporter = (requests: () => number): Reporter => {
    const inner = shared.reporter ? shared.reporter(requests) : createReporter(io, { quiet: run.args.quiet, requests });
    return { ...inner, property: (p) => inner.property({ ...p, flags: counts.reviewRows }) };
  };
  const held = shared.slots ? { slots: shared.slots } : {};
  const stage = async (deps: ExportDeps): Promise<StagedUvi> => {
    const created = fixedExportTime(io.env) ?? deps.now?.() ?? new Date();
    // the fonts (and the PDF library, formats.ts) at the first letter: not before the first request
    const fonts = async () => (await import('../uvi/letter/fonts.js')).letterFonts();
    const formats = uviFormats(async () => ({ fonts: await fonts(), createdAt: created, lang }), !shared.reporter);
    const staged = await stagePipeline({ ...deps, formats }, async () => steps);
    // The manifest and the summary count review.csv's lines, not billing's findings of the 13 months.
    const { flags, codes } = uviFindings(counts);
    const counted = { ...staged, manifest: { ...staged.manifest, flags }, summary: { ...staged.summary, flags, codes } };
    return { staged: counted, letters: counts.letters, incomplete: counts.incomplete };
  };
  return withExportDeps(run.args, run.template, io, conn, stage, { streamUnits: false, reporter, ...held });
}

/** The lines on stderr after a run. */
export function uviSummaryText(s: UviSummary): string {
  const c = s.counts;
  return [
    t.wrote({ month: s.month, out: s.out }),
    t.letters({ letters: s.letters, units: c.units, properties: c.properties }),
    s.incomplete > 0 ? t.incomplete({ n: s.incomplete }) : t.complete,
    t.requests({ requests: s.requests }),
  ].join('\n');
}

/** The --json object: what a mail merge or cron job needs to know (the files, the letters, the units to check). */
export function uviSummaryJson(s: UviSummary): string {
  return terminalSafeJson({
    month: s.month,
    out: s.out,
    files: s.files,
    range: s.range,
    tenant: s.tenant,
    exported_at: s.exportedAt,
    resumed: s.resumed,
    counts: {
      properties: s.counts.properties,
      units: s.counts.units,
      measuring_points: s.counts.measuring_points,
      plant_points: s.counts.plant_points,
      rows: s.counts.rows,
    },
    letters: s.letters,
    incomplete_units: s.incomplete,
    requests: s.requests,
    exit_code: ExitCode.OK,
  });
}
