// One export: identity check and journal, the walk Property by Property (fetch the next
// while writing the current), billing, rows streamed to the writers, then everything
// renamed into place at once. Output order depends only on the data, so two runs (or an
// interrupted and resumed one) write the same bytes. A failure's message: run-errors.ts.
import type { ApiClient } from '../api/contracts.js';
import { CONTRACT_VERSION, type Property } from '../api/types.js';
import { billProperty, reviewRows } from '../billing/index.js';
import type { Severity } from '../billing/types.js';
import { isMeterdataError } from '../core/errors.js';
import { language } from '../i18n/index.js';
import { aboutRows } from './about.js';
import type { PropertyAnswers } from '../api/walk.js';
import { Journal, type JournalHandle } from './journal.js';
import { expectedRange, identity, type ExportArgs } from './options.js';
import { startPlausibility, withFindings } from './plausibility.js';
import { activeTemplate } from './review-options.js';
import { checkOutDir } from './out-folder.js';
import { OutputSet, completeOutput, finalNames, discardOutput, writeWorkbookHere, type FileEntry, type RenderAhead, type StagedOutput, type WorkbookWriter, type Template } from './output/index.js';
import { heldProperties, type Slots } from './held.js';
import type { Reporter } from './progress.js';
import { unknownValueFlags } from './unknown.js';
import { runText as t } from './texts-run.js';
import { placesOf } from './places.js';
import { unitRefIndex, withUnitRefs } from './unit-refs.js';
import { collectProperty, propertiesInScope } from '../api/walk.js';
import { diskProblem, incomplete, periodChanged, unfinished } from './run-errors.js';

export { nameList } from './run-errors.js';
import { NOTHING_WRITTEN, PropertyStream } from './stream.js';

export interface ExportDeps {
  api: ApiClient;
  args: ExportArgs;
  template: Template;
  /** dirs().state: the journal lives under exports/ there. */
  stateDir: string;
  reporter: Reporter;
  toolVersion: string;
  signal?: AbortSignal;
  now?: () => Date;
  /** Narrows each Property's answers before billing (the browser's export of one unit); the journal keeps them whole. */
  select?: (answers: PropertyAnswers) => PropertyAnswers;
  /** Caps the Properties held in memory across several exports (the portfolio export); none: at most two. */
  slots?: Slots;
  /** Renders the workbook's table rows while the walk goes on (the portfolio's workbook workers). */
  renderAhead?: RenderAhead;
  /** false: each Property is billed and written at its end only (tests compare the bytes both ways); default: units as they come. */
  streamUnits?: boolean;
}

export interface ExportSummary {
  out: string;
  files: FileEntry[];
  /** The effective range the service answered for (widened, capped at the last completed month). */
  range: { from: string; to: string };
  /** The range asked for, widened to whole months: `range` ends earlier when the service shortened it. */
  requested: { from: string; to: string };
  /** Measuring points with any values in the range (each once); 0 means nothing could be billed. */
  pointsWithData: number;
  tenant: string;
  exportedAt: string;
  resumed: boolean;
  counts: { properties: number; units: number; measuring_points: number; plant_points: number; rows: Record<string, number> };
  flags: Record<Severity, number>;
  /** Findings per flag code, e.g. { MISSING_VALUE: 2 }. */
  codes: Record<string, number>;
  requests: number;
}

/**
 * An export whose data is all fetched, billed and written to temporary files, with its
 * journal still locked: `finishExport` writes the workbook and puts the files in place.
 * Plain data, so the two halves can run in different threads.
 */
export interface StagedExport {
  output: StagedOutput;
  journal: JournalHandle;
  /** The manifest without its file list (which finishExport adds last). */
  manifest: Record<string, unknown>;
  summary: Omit<ExportSummary, 'files'>;
}

export async function runExport(deps: ExportDeps): Promise<ExportSummary> {
  return finishExport(await stageExport(deps), { signal: deps.signal });
}

/** The walk, billing and every CSV and spool, under temporary names (see StagedExport). */
export async function stageExport(deps: ExportDeps): Promise<StagedExport> {
  const { api, args, reporter } = deps;
  const template = withUnitRefs(activeTemplate(deps.template, args.review), args.unitRefs);
  const refs = unitRefIndex(args.unitRefs);
  const now = deps.now ?? (() => new Date());
  const id = identity(args);
  // The first request may refresh the sign-in, which notes it in config.json: a full disk there is no bug either.
  const who = await api.whoami().catch((e: unknown) => Promise.reject(diskProblem(e) ?? e));
  const plausibility = await startPlausibility(args, who);
  // The saved progress may be on a full disk before anything is fetched: one line naming its file, no stack.
  const journal = await Journal.open(deps.stateDir, { ...id, out: args.out }, who, now(), args.out).catch((e: unknown) => Promise.reject(diskProblem(e) ?? e));
  try {
    // Checked again under the folder's lock: another export may have finished there since.
    await checkOutDir(args.out, id, finalNames(template, args.formats), args);
  } catch (e) {
    await Journal.release(journal.handOver(), !journal.resumed); // a journal just made for a refused run goes too
    throw e;
  }
  if (journal.restartReason) reporter.note(t.startingOver({ reason: journal.restartReason }));
  if (journal.resumed) reporter.note(t.resuming({ started: journal.meta.startedAt }));

  let properties: Property[];
  try {
    properties = journal.meta.properties ?? (await propertiesInScope(api, args.propertyIds));
    if (!journal.meta.properties) await journal.setProperties(properties);
  } catch (e) {
    await journal.close();
    throw diskProblem(e) ?? e;
  }
  const hint = properties.every((p) => typeof p.usage_unit_count === 'number') ? properties.reduce((s, p) => s + (p.usage_unit_count ?? 0), 0) : null;
  plausibility?.announce(reporter, hint);
  reporter.begin(properties.length, plausibility ? plausibility.progressUnits(hint) : hint);

  const output = new OutputSet(args.out, template, args.formats);
  const counts = { properties: properties.length, units: 0, measuring_points: 0, plant_points: 0 };
  const flags: Record<Severity, number> = { not_billed: 0, review: 0, info: 0 };
  const codes: Record<string, number> = {};
  let range: { from: string; to: string } | null = null;
  let pointsWithData = 0;
  let done = 0;
  const fromJournal = new Set<number>();

  const held = heldProperties(deps.slots);
  /** Aborted when the export stops: the Property fetched meanwhile asks for nothing more and saves nothing. */
  const stopWalks = new AbortController();
  /** Saves under way: the journal's lock is let go only once they ended (one may have started just before the stop). */
  const saving = new Set<Promise<unknown>>();
  /** The Properties being walked whose units are written as they come (see stream.ts). */
  const streams = new Map<number, PropertyStream>();
  /** `tentative`: called by a stream, whose rows may still be dropped (OutputSet.renderAhead). */
  const renderAhead = deps.renderAhead
    ? async (tentative: boolean) => {
        const ahead = await output.renderAhead(tentative);
        if (ahead) deps.renderAhead!(ahead.spec, ahead.upTo);
      }
    : null;
  const fetchAt = async (i: number): Promise<PropertyAnswers> => {
    // made before any wait, so that the loop finds it when the Property's turn comes; the
    // browser's export of one unit narrows the answers first: its Property is written at the end
    const stream = deps.select || deps.streamUnits === false ? null : new PropertyStream({ output, refs, property: { id: properties[i]!.id, name: properties[i]!.name }, onFailure: (e) => stopWalks.abort(e), ...(renderAhead ? { renderAhead: () => renderAhead(true) } : {}) });
    if (stream) streams.set(i, stream);
    await held.take(i);
    try {
      const saved = await journal.load(i, properties[i]!, (file, why) => reporter.note(t.answersDamaged({ name: properties[i]!.name, file, why })));
      if (saved) {
        fromJournal.add(i);
        return saved;
      }
      const walked = await collectProperty(api, properties[i]!, {
        range: { from: args.from, to: args.to },
        metrics: args.metrics,
        onUnit: () => reporter.unit(),
        stop: stopWalks.signal,
        ...(stream ? { onLists: (u, p) => stream.lists(u, p), askOrder: (u) => stream.askOrder(u), onAnswer: (k, e) => stream.answer(k, e) } : {}),
      });
      const answers = plausibility ? await plausibility.fetch(api, walked, () => reporter.unit(), stopWalks.signal) : walked;
      stopWalks.signal.throwIfAborted(); // the journal's lock may be let go already
      const save = journal.save(i, answers, stream?.takeUnitsJson(answers.units));
      const settled = save.catch(() => undefined);
      saving.add(settled);
      await save.finally(() => saving.delete(settled));
      return answers;
    } catch (e) {
      held.release(i);
      throw e;
    }
  };

  try {
    await output.start();
    let pending: Promise<PropertyAnswers> | null = properties.length ? fetchAt(0) : null;
    pending?.catch(() => undefined); // surfaced when awaited: a failure while the stream is activated is not unhandled
    for (let i = 0; i < properties.length; i++) {
      await streams.get(i)?.activate(range);
      const fetched = await pending!;
      const answers = deps.select ? deps.select(fetched) : fetched;
      pending = i + 1 < properties.length ? fetchAt(i + 1) : null;
      pending?.catch(() => undefined); // surfaced when awaited in the next round
      if (deps.signal?.aborted) throw deps.signal.reason;
      const { property } = answers;
      for (const { unit, consumption: c } of answers.units) {
        range ??= { from: c.from, to: c.to };
        if (c.from !== range.from || c.to !== range.to) throw periodChanged(range, c, property.name, unit.name);
      }
      const propRange = range ?? expectedRange(args.from, args.to, new Date());
      const stream = streams.get(i);
      streams.delete(i);
      const bill = billProperty({ property: { id: property.id, name: property.name }, range: propRange, units: answers.units, plantPoints: answers.plantPoints, points: answers.points }, stream?.earlyBill);
      const places = placesOf(answers, bill);
      // the units' rows the stream wrote while the walk went on stay where they are what the bill writes first
      const written = stream ? await stream.settle(bill, places) : NOTHING_WRITTEN;
      await output.write('billing', refs.withRef(bill.billing.slice(written.billing)));
      await output.write('segments', places.segments(bill.segments.slice(written.segments)));
      await output.write('readings', places.readings(bill.readings.slice(written.readings)));
      await output.write('plant-points', bill.plant);
      const review = plausibility?.review(answers, bill, propRange);
      if (review) await output.write('plausibility', withFindings(review.rows, language()));
      const allFlags = [...bill.flags, ...unknownValueFlags(answers, bill.flags), ...(review?.flags ?? []), ...refs.flags(property.id, answers.units.map((u) => u.unit.id))];
      await output.write('review', reviewRows(allFlags, language(), places.of));
      await output.addOverview(refs.withRef(bill.billing.slice(written.billing)), property, refs.withRef(answers.units.map((u) => u.unit).filter((u) => !written.units.has(u.id))), places.marks(allFlags, review?.rows));
      await renderAhead?.(false);
      api.forgetProperty(property.id); // no request names its units or points again
      for (const f of allFlags) {
        flags[f.severity]++;
        codes[f.code] = (codes[f.code] ?? 0) + 1;
      }
      counts.units += answers.units.length;
      counts.measuring_points += answers.points.length;
      counts.plant_points += bill.plant.length;
      const withData = [...answers.units.flatMap((u) => u.consumption.measuring_points), ...answers.plantPoints.map((p) => p.consumption)].filter((c) => c.segments.length > 0);
      pointsWithData += new Set(withData.map((c) => c.measuring_point_id)).size;
      held.release(i);
      done = i + 1;
      reporter.property({ index: i + 1, total: properties.length, name: property.name, units: answers.units.length, plantPoints: bill.plant.length, flags: allFlags.length, fromJournal: fromJournal.has(i), ...(plausibility ? { work: plausibility.progressUnits(answers.units.length)! } : {}) });
    }
    // Lines of --unit-refs for units no Property had: known only now, listed after every Property's findings.
    const unknownRefs = refs.unknown();
    await output.write('review', reviewRows(unknownRefs, language()));
    for (const f of unknownRefs) {
      flags[f.severity]++;
      codes[f.code] = (codes[f.code] ?? 0) + 1;
    }
    // Without a unit answer (plant-room points only) nothing echoed a range: this computer's clock caps it.
    const effective = range ?? expectedRange(args.from, args.to, new Date());
    const requested = { from: args.from, to: args.to };
    const exportedAt = journal.meta.startedAt;
    const scope = journal.meta.propertyScope;
    const about = aboutRows(
      {
        tenant: journal.meta.tenantName,
        scope: scope === 'all' ? 'all' : scope.map((id) => properties.find((p) => p.id === id)?.name ?? id),
        // --property narrows the export below the connection's scope: say which ones the files hold.
        exported: args.propertyIds.length > 0 ? properties.map((p) => p.name) : null,
        range: effective,
        contract: CONTRACT_VERSION,
        exportedAt,
        toolVersion: deps.toolVersion,
        template: template.name,
        counts,
        flags,
        unitRefs: args.unitRefs ? { file: args.unitRefs.file, units: args.unitRefs.entries.length } : null,
      },
      plausibility?.about() ?? [],
    );
    const rows = Object.fromEntries(Object.entries(output.rows)) as Record<string, number>;
    const staged = await output.stage(about, new Date(exportedAt));
    reporter.end();
    return {
      output: staged,
      journal: journal.handOver(),
      manifest: {
        tool: 'meterdata',
        version: deps.toolVersion,
        contract: CONTRACT_VERSION,
        identity: id,
        tenant: { id: journal.meta.tenantId, name: journal.meta.tenantName },
        range: effective,
        requested_range: requested,
        exported_at: exportedAt,
        counts: { ...counts, rows },
        flags,
      },
      summary: { out: args.out, range: effective, requested, pointsWithData, tenant: journal.meta.tenantName, exportedAt, resumed: journal.resumed, counts: { ...counts, rows }, flags, codes, requests: api.stats().requests },
    };
  } catch (e) {
    stopWalks.abort(e);
    held.stop();
    reporter.end();
    for (const stream of streams.values()) await stream.stop(); // nothing writes into the files being removed
    await output.abort().catch(() => undefined);
    await Promise.all(saving);
    await (isMeterdataError(e) && e.code === 'EXPORT_PERIOD_CHANGED' ? journal.discard() : journal.close());
    throw incomplete(e, done, properties.map((p) => p.name), args.out, deps.signal);
  }
}

/**
 * Writes billing.xlsx (with `writeWorkbook`, by default in this thread) and the manifest,
 * renames everything into place and removes the journal. On failure nothing is put
 * under a final name and the journal stays for a re-run.
 */
export async function finishExport(staged: StagedExport, opts: { writeWorkbook?: WorkbookWriter; signal?: AbortSignal | undefined } = {}): Promise<ExportSummary> {
  const { summary } = staged;
  try {
    const write = opts.writeWorkbook ?? writeWorkbookHere;
    const files = await completeOutput(staged.output, (files) => ({ ...staged.manifest, files }), async (input) => {
      await write(input);
      if (opts.signal?.aborted) throw opts.signal.reason; // a Ctrl-C while the workbook was written: nothing is committed
    });
    await Journal.release(staged.journal, true);
    return { ...summary, files };
  } catch (e) {
    await discardOutput(staged.output).catch(() => undefined);
    await Journal.release(staged.journal, false);
    throw unfinished(e, summary.out, opts.signal);
  }
}
