// The driver of one export: identity check and journal, the walk Property by Property (fetch
// the next while writing the current: walk.ts), billing and the steps (property.ts), rows
// streamed to the writers, then everything renamed into place at once (finish.ts). It names
// no step: they come from `stepsOf` (src/export/steps for the export). Output order depends
// only on the data, so two runs (or an interrupted and resumed one) write the same bytes. A
// failure's message: run-errors.ts.
import type { Property, WhoAmI } from '../../api/types.js';
import { propertiesInScope, type PropertyAnswers } from '../../api/walk.js';
import { reviewRows } from '../../billing/index.js';
import { isMeterdataError } from '../../core/errors.js';
import { language } from '../../i18n/index.js';
import { Journal, takenOverReason } from '../journal/index.js';
import { expectedRange, identity } from '../options/index.js';
import { checkOutDir } from '../folder/index.js';
import { OutputSet, formatsNamed, type OutputFormat } from '../output/index.js';
import { diskProblem, incomplete, periodChanged } from '../run-errors.js';
import { stopWords } from '../run-words.js';
import { runText as t } from '../texts-run.js';
import type { Template } from '../output/index.js';
import { closeRun } from './finish.js';
import { writeProperty } from './property.js';
import type { ExportStep } from './step.js';
import { Tally } from './tally.js';
import type { ExportDeps, StagedExport } from './types.js';
import { PropertyWalk } from './walk.js';

/** The steps of a run, made once the connection's identity is known (a step may load files naming it). */
export type StepsOf = (who: WhoAmI) => Promise<ExportStep[]>;

/** An opened run: its journal, the Properties in scope and the template as the steps shape it. */
export interface Run {
  deps: ExportDeps;
  steps: readonly ExportStep[];
  template: Template;
  journal: Journal;
  properties: Property[];
}

/** The walk, billing and every CSV and spool, under temporary names (see StagedExport). */
export async function stagePipeline(deps: ExportDeps, stepsOf: StepsOf): Promise<StagedExport> {
  const run = await openRun(deps, stepsOf);
  const { properties, steps } = run;
  const hint = properties.every((p) => typeof p.usage_unit_count === 'number') ? properties.reduce((s, p) => s + (p.usage_unit_count ?? 0), 0) : null;
  for (const step of steps) step.announce?.(deps.reporter, hint);
  deps.reporter.begin(properties.length, progressUnits(steps, hint));
  return walkProperties(run);
}

async function openRun(given: ExportDeps, stepsOf: StepsOf): Promise<Run> {
  // Another run that took a folder of this one over stops it before its next write (see keepTouching).
  const lost = new AbortController();
  const deps = { ...given, signal: given.signal ? AbortSignal.any([given.signal, lost.signal]) : lost.signal };
  const { api, args, reporter } = deps;
  const now = deps.now ?? (() => new Date());
  const id = identity(args);
  // The first request may refresh the sign-in, which notes it in config.json: a full disk there is no bug either.
  const who = await api.whoami().catch((e: unknown) => Promise.reject(diskProblem(e) ?? e));
  const steps = await stepsOf(who);
  const template = steps.reduce((tpl, step) => step.template?.(tpl) ?? tpl, deps.template);
  // The saved progress may be on a full disk before anything is fetched: one line naming its file, no stack.
  const journal = await Journal.open(deps.stateDir, { ...id, out: args.out }, who, now(), args.out, (e) => lost.abort(e)).catch((e: unknown) =>
    Promise.reject(diskProblem(e) ?? e),
  );
  try {
    // Checked again under the folder's lock: another export may have finished there since.
    await checkOutDir(
      args.out,
      id,
      runFormats(deps).flatMap((f) => f.finalNames(template)),
      args,
    );
  } catch (e) {
    await Journal.release(journal.handOver(), !journal.resumed); // a journal just made for a refused run goes too
    throw e;
  }
  if (journal.restartReason) reporter.note(t.startingOver({ reason: journal.restartReason }));
  if (journal.resumed) reporter.note(stopWords(args.template).resuming({ started: journal.meta.startedAt }));
  try {
    const properties = journal.meta.properties ?? (await propertiesInScope(api, args.propertyIds));
    if (!journal.meta.properties) await journal.setProperties(properties);
    return { deps, steps, template, journal, properties };
  } catch (e) {
    await journal.close();
    throw diskProblem(e) ?? e;
  }
}

/** The formats a run writes: its own, else those --format names. */
function runFormats(deps: ExportDeps): readonly OutputFormat[] {
  return deps.formats ?? formatsNamed(deps.args.formats);
}

/** The units the progress bar counts, as the steps change them (null: not known). */
function progressUnits(steps: readonly ExportStep[], units: number | null): number | null {
  return steps.reduce((n, step) => (step.progressUnits ? step.progressUnits(n) : n), units);
}

async function walkProperties(run: Run): Promise<StagedExport> {
  const { deps, steps, journal, properties } = run;
  const { api, args, reporter } = deps;
  const formats = runFormats(deps);
  const output = new OutputSet(
    args.out,
    run.template,
    formats.map((f) => f.name),
    formats,
    deps.signal,
  );
  const tally = new Tally(properties.length);
  const renderAhead = deps.renderAhead
    ? async (tentative: boolean) => {
        const ahead = await output.renderAhead(tentative);
        if (ahead) deps.renderAhead!(ahead.spec, ahead.upTo);
      }
    : null;
  // A step that changes rows at a Property's end but not as its units come would leave the rows written early unchanged.
  const stream = !args.unit && deps.streamUnits !== false && steps.every((s) => !s.shape || s.early);
  const walk = new PropertyWalk({ api, args, reporter, journal, properties, output, steps, stream, slots: deps.slots, renderAhead });
  deps.signal?.addEventListener('abort', () => takenOverReason(deps.signal) && walk.stop(deps.signal?.reason), { once: true }); // its requests too
  const counted = steps.some((s) => s.progressUnits);
  let range: { from: string; to: string } | null = null;
  let done = 0;
  /** Property `i`, fetched: checked, billed, written and counted. */
  const writeOne = async (i: number, fetched: PropertyAnswers): Promise<void> => {
    if (deps.signal?.aborted) throw deps.signal.reason;
    const { property } = fetched;
    for (const { unit, consumption: c } of fetched.units) {
      range ??= { from: c.from, to: c.to };
      if (c.from !== range.from || c.to !== range.to) throw periodChanged(range, c, property.name, unit.name, args.template);
    }
    const { answers, bill, flags } = await writeProperty(
      output,
      steps,
      fetched,
      range ?? expectedRange(args.from, args.to, new Date()),
      walk.takeStream(i),
      args.unit,
      args.metrics,
    );
    await renderAhead?.(false);
    api.forgetProperty(property.id); // no request names its units or points again
    tally.findings(flags);
    tally.property(answers, bill);
    walk.release(i);
    const work = counted ? { work: progressUnits(steps, answers.units.length)! } : {};
    reporter.property({
      index: i + 1,
      total: properties.length,
      name: property.name,
      units: answers.units.length,
      plantPoints: bill.plant.length,
      flags: flags.length,
      fromJournal: walk.fromJournal.has(i),
      ...work,
    });
  };
  try {
    await output.start();
    let pending: Promise<PropertyAnswers> | null = properties.length ? walk.fetch(0) : null;
    pending?.catch(() => undefined); // surfaced when awaited: a failure while the stream is activated is not unhandled
    for (let i = 0; i < properties.length; i++) {
      await walk.activate(i, range);
      // Through then(), so that this loop, suspended while the next Property is walked, never held the
      // Property before: V8 keeps an async function's finished locals alive until their registers are
      // reused, and they were that Property's answers and bill, whole, through the whole next walk.
      await pending!.then((fetched) => {
        pending = i + 1 < properties.length ? walk.fetch(i + 1) : null;
        pending?.catch(() => undefined); // surfaced when awaited in the next round
        return writeOne(i, fetched);
      });
      done = i + 1;
    }
    // Findings known only now (lines of --unit-refs for units no Property had): after every Property's.
    const late = steps.flatMap((s) => s.finish?.() ?? []);
    await output.write('review', reviewRows(late, language()));
    tally.findings(late, unlistedOf(steps));
    // The last Property's signal: the loop checks only before each Property is written.
    if (deps.signal?.aborted) throw deps.signal.reason;
    return await closeRun(run, output, tally, range);
  } catch (caught) {
    const e: unknown = takenOverReason(deps.signal) ?? caught;
    walk.stop(e);
    reporter.end();
    await walk.settled();
    if (!takenOverReason(deps.signal)) await output.abort().catch(() => undefined); // their names are the new holder's too
    await walk.saved();
    await (isMeterdataError(e) && e.code === 'EXPORT_PERIOD_CHANGED' ? journal.discard() : journal.close());
    throw incomplete(
      e,
      done,
      properties.map((p) => p.name),
      args.out,
      deps.signal,
      args.template,
    );
  }
}

/** The steps' findings counted beyond the ones they list (see ExportStep.unlisted). */
const unlistedOf = (steps: readonly ExportStep[]) => steps.flatMap((s) => s.unlisted?.() ?? []);
