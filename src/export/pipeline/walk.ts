// The Properties' answers, one ahead of the one being written: read from the journal or
// walked (the units streamed to the writers as they come, stream.ts), then the steps' own
// requests, then saved, so a resumed run fetches nothing twice.
import type { ApiClient } from '../../api/contracts.js';
import type { Property } from '../../api/types.js';
import { checkPlantPeriods, collectProperty, type PropertyAnswers } from '../../api/walk.js';
import type { Journal } from '../journal/index.js';
import type { ExportArgs } from '../options/index.js';
import type { OutputSet } from '../output/index.js';
import type { Reporter } from '../progress.js';
import { runText as t } from '../texts-run.js';
import { heldProperties, type Slots } from './held.js';
import { composeEarly, type ExportStep } from './step.js';
import { PropertyStream } from './stream.js';

export interface WalkDeps {
  api: ApiClient;
  args: ExportArgs;
  reporter: Reporter;
  journal: Journal;
  properties: readonly Property[];
  output: OutputSet;
  steps: readonly ExportStep[];
  /** false: no Property is streamed (the browser's one-unit export, tests); see ExportDeps. */
  stream: boolean;
  slots: Slots | undefined;
  /** `tentative`: called by a stream, whose rows may still be dropped (OutputSet.renderAhead). */
  renderAhead: ((tentative: boolean) => Promise<void>) | null;
}

export class PropertyWalk {
  /** Aborted when the export stops: the Property fetched meanwhile asks for nothing more and saves nothing. */
  private readonly stopWalks = new AbortController();
  /** Saves under way: the journal's lock is let go only once they ended (one may have started just before the stop). */
  private readonly saving = new Set<Promise<unknown>>();
  /** The Properties being walked whose units are written as they come. */
  private readonly streams = new Map<number, PropertyStream>();
  private readonly held: ReturnType<typeof heldProperties>;
  /** Properties read from the journal rather than fetched. */
  readonly fromJournal = new Set<number>();

  constructor(private readonly deps: WalkDeps) {
    this.held = heldProperties(deps.slots);
  }

  /** The answers of Property `i`, with what the steps fetched for it. */
  async fetch(i: number): Promise<PropertyAnswers> {
    const { journal, reporter } = this.deps;
    const property = this.deps.properties[i]!;
    // made before any wait, so that the loop finds it when the Property's turn comes
    const stream = this.deps.stream ? this.newStream(property) : null;
    if (stream) this.streams.set(i, stream);
    await this.held.take(i);
    try {
      const saved = await journal.load(i, property, (file, why) => reporter.note(t.answersDamaged({ name: property.name, file, why })));
      if (saved) {
        this.deps.api.noteSaved?.(saved); // the devices of a Property read back count against those fetched after it
        this.fromJournal.add(i);
        return saved;
      }
      const answers = await this.request(property, stream);
      // before it is saved: a re-run would read the answer of another period from the journal again
      checkPlantPeriods(answers, this.deps.args, new Date());
      this.stopWalks.signal.throwIfAborted(); // the journal's lock may be let go already
      const save = journal.save(i, answers, stream?.takeUnitsJson(answers.units));
      const settled = save.catch(() => undefined);
      this.saving.add(settled);
      await save.finally(() => this.saving.delete(settled));
      return answers;
    } catch (e) {
      this.held.release(i);
      throw e;
    }
  }

  private async request(property: Property, stream: PropertyStream | null): Promise<PropertyAnswers> {
    const { api, args, reporter } = this.deps;
    const progress = { onUnit: () => reporter.unit(), stop: this.stopWalks.signal };
    let answers = await collectProperty(api, property, {
      range: { from: args.from, to: args.to },
      metrics: args.metrics,
      ...progress,
      ...(stream ? { onLists: (u, p) => stream.lists(u, p), askOrder: (u) => stream.askOrder(u), onAnswer: (k, e) => stream.answer(k, e) } : {}),
    });
    for (const step of this.deps.steps) if (step.fetch) answers = await step.fetch(api, answers, progress);
    return answers;
  }

  private newStream(property: Property): PropertyStream {
    const { output, steps, renderAhead } = this.deps;
    const p = { id: property.id, name: property.name };
    return new PropertyStream({
      output,
      property: p,
      metrics: this.deps.args.metrics,
      early: (points) => composeEarly(steps.flatMap((s) => (s.early ? [s.early(p, points)] : []))),
      onFailure: (e) => this.stopWalks.abort(e),
      ...(renderAhead ? { renderAhead: () => renderAhead(true) } : {}),
    });
  }

  /** The Properties before `i` are written: its stream may write. */
  async activate(i: number, range: { from: string; to: string } | null): Promise<void> {
    await this.streams.get(i)?.activate(range);
  }

  /** Property `i`'s stream, handed to its writing (undefined: not streamed). */
  takeStream(i: number): PropertyStream | undefined {
    const stream = this.streams.get(i);
    this.streams.delete(i);
    return stream;
  }

  /** Property `i` is written: its answers may go. */
  release(i: number): void {
    this.held.release(i);
  }

  /** The export failed: stops every walk and gives the held slots back. */
  stop(reason: unknown): void {
    this.stopWalks.abort(reason);
    this.held.stop();
  }

  /** Once stopped: settles when no stream writes any more. */
  async settled(): Promise<void> {
    for (const stream of this.streams.values()) await stream.stop(); // nothing writes into the files being removed
  }

  /** Settles when no save is under way (the journal's lock may go then). */
  async saved(): Promise<void> {
    await Promise.all(this.saving);
  }
}
