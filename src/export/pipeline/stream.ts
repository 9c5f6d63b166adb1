// A Property's units billed and written as their answers come, in unit order, so that the
// rows of a large Property are made during its walk and not all at its end (in the
// portfolio export, the large Properties of many profiles end at the same moment and
// their billing would queue on one thread). What is written early is only ever a prefix
// of each table: at the Property's end the whole Property is billed as always, the early
// rows are checked against that bill, the rest follows, and when anything differs (a share
// sum off 1, a point under two units, a period that changed) the early rows are dropped
// and the Property is written the usual way. The bytes are the same either way.
import type { UnitConsumption, UsageUnit, MeasuringPoint } from '../../api/types.js';
import { compareUnits } from '../../billing/order.js';
import { copyBilled, listedLinksOf, refusedCopies, type EarlyBill, type PropertyBill } from '../../billing/property.js';
import { billUnit, listedPointsOf, type UnitBill } from '../../billing/unit.js';
import { listedAbsentOf, type ListedAbsent } from '../../billing/listed-absent.js';
import { idKey, listedKindsOf, type ListedKinds, type ListedPoints } from '../../billing/contract.js';
import type { ReadingRow } from '../../billing/types.js';
import type { OutputMark, OutputSet } from '../output/index.js';
import type { Early, Shape } from './step.js';

type Entry = { unit: UsageUnit; consumption: UnitConsumption };

/** How much of each table a Property's stream wrote and kept (see `settle`). */
export interface Written {
  billing: number;
  segments: number;
  readings: number;
  /** Units whose Overview row is written. */
  units: ReadonlySet<string>;
}

export const NOTHING_WRITTEN: Written = { billing: 0, segments: 0, readings: 0, units: new Set() };

/** Units written between two renders of the workbook's rows ahead. */
const RENDER_EVERY = 16;

export interface StreamDeps {
  output: OutputSet;
  property: { id: string; name: string };
  /** The metrics asked for (--metric; empty or none: all): a listed meter of another is not missing. */
  metrics?: readonly string[];
  /** The steps' row changes for this Property's units, once its point list is known. */
  early: (points: readonly MeasuringPoint[]) => Early;
  /** Renders the rows spooled so far ahead of the workbook (the portfolio); none: nothing to do. */
  renderAhead?: () => Promise<void>;
  /** A write failed: the export will fail with it at the Property's end, so its walk can stop now. */
  onFailure?: (error: unknown) => void;
}

export class PropertyStream {
  private units: UsageUnit[] = [];
  /** Unit indexes in unit order; null: this Property is written at its end (duplicate ids, or units without one order). */
  private order: number[] | null = null;
  private readonly answers = new Map<number, Entry>();
  /** Each answer as the journal saves it, made as it came. */
  private readonly json = new Map<number, string>();
  private readonly early = new Map<UnitConsumption, EarlyBill & { unit: UsageUnit }>();
  private cursor = 0;
  private active = false;
  private stopped = false;
  private range: { from: string; to: string } | null = null;
  private chain: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;
  private mark: OutputMark | null = null;
  private shape: Early | null = null;
  private links = new Map<string, boolean>();
  private listedPoints: ListedPoints = new Map();
  private listedKinds: ListedKinds = new Map();
  private listedAbsent: ListedAbsent = listedAbsentOf([]);
  /** What is written: each unit's bill in order, rows per table, the first reading per point as written. */
  private readonly bills: UnitBill[] = [];
  private readonly written = { billing: 0, segments: 0, readings: 0, units: new Set<string>() };
  private readingsOpen = true;
  /** Points whose readings are written: the first reading as billed and as written (null: none). */
  private readonly points = new Map<string, [billed: ReadingRow, written: ReadingRow] | null>();
  private sinceRender = 0;
  /** Whether early rows were dropped at the end (tests, the bench's notes). */
  rewound = false;

  constructor(private readonly deps: StreamDeps) {}

  /** The walk's unit and point lists: the unit order is known from here on. */
  lists(units: UsageUnit[], points: MeasuringPoint[]): void {
    this.units = units;
    this.links = listedLinksOf(points);
    this.listedPoints = listedPointsOf(points);
    this.listedKinds = listedKindsOf(points);
    this.listedAbsent = listedAbsentOf(points, this.deps.metrics);
    this.shape = this.deps.early(points);
    const order = units.map((_, i) => i).sort((a, b) => compareUnits(units[a]!, units[b]!));
    const strict = order.every((i, k) => k === 0 || compareUnits(units[order[k - 1]!]!, units[i]!) < 0);
    const ids = new Set(units.map((u) => u.id));
    this.order = strict && ids.size === units.length ? order : null;
  }

  /** The order to ask for the units in: the order they are written in. */
  askOrder(units: UsageUnit[]): number[] {
    return this.order && units === this.units ? this.order : units.map((_, i) => i);
  }

  answer(index: number, entry: Entry): void {
    this.answers.set(index, entry);
    this.json.set(index, JSON.stringify(entry));
    if (this.active) this.pump();
  }

  /**
   * The Properties before this one are written: its rows may follow now. `range`: the
   * period earlier Properties' answers gave (null: none yet, the first unit's decides).
   */
  async activate(range: { from: string; to: string } | null): Promise<void> {
    this.range = range;
    this.mark = await this.deps.output.mark();
    this.active = true;
    this.pump();
  }

  /**
   * The units' answers as JSON for the journal (journal.ts answersJson), where each of `units`
   * came through here; asked for once, so the strings go with the journal's save.
   */
  takeUnitsJson(units: readonly Entry[]): string[] | undefined {
    const out: string[] = [];
    for (const [k, entry] of units.entries()) {
      const json = this.json.get(k);
      if (this.answers.get(k) !== entry || json === undefined) break;
      out.push(json);
    }
    this.json.clear();
    return out.length === units.length ? out : undefined;
  }

  /** Early bills for billProperty: the bill each written unit got. */
  readonly earlyBill = (entry: Entry): EarlyBill | undefined => {
    const e = this.early.get(entry.consumption);
    return e && e.unit === entry.unit ? e : undefined;
  };

  private pump(): void {
    this.chain = this.chain.then(async () => {
      if (this.failure) return;
      try {
        while (!this.stopped && this.order && this.cursor < this.order.length) {
          const entry = this.answers.get(this.order[this.cursor]!);
          if (!entry) break;
          await this.writeUnit(entry);
          this.cursor++;
          if (++this.sinceRender >= RENDER_EVERY && this.deps.renderAhead) {
            this.sinceRender = 0;
            await this.deps.renderAhead();
          }
        }
      } catch (e) {
        this.failure = { error: e };
        this.deps.onFailure?.(e);
      }
    });
  }

  private async writeUnit({ unit, consumption }: Entry): Promise<void> {
    const { output, property } = this.deps;
    const shape = this.shape!; // set with the lists, before any answer is written
    const period = { from: consumption.from, to: consumption.to };
    this.range ??= period;
    // one folder, one period: the Property's end says which unit differs, in list order
    if (period.from !== this.range.from || period.to !== this.range.to) {
      this.stopped = true;
      return;
    }
    const range = this.range;
    const bill = billUnit({
      property,
      unit,
      consumption,
      range,
      listedLinks: this.links,
      listedPoints: this.listedPoints,
      listedKinds: this.listedKinds,
      listedAbsent: this.listedAbsent,
    });
    this.early.set(consumption, { range, bill, unit });
    this.bills.push(bill);
    shape.unit(unit, consumption, refusedCopies(bill.flags));
    const billing = shape.billing(bill.billing);
    await output.write('billing', billing);
    await output.write('segments', shape.segments(bill.segments));
    this.written.billing += bill.billing.length;
    this.written.segments += bill.segments.length;
    if (this.readingsOpen && shape.holdsReadings(consumption)) this.readingsOpen = false;
    if (this.readingsOpen) {
      // as billProperty lists them: a point once (idKey), from a copy billing accepted
      for (const p of bill.points.filter(copyBilled)) {
        if (this.points.has(idKey(p.measuring_point_id))) continue;
        const rows = shape.readings(p.readings);
        this.points.set(idKey(p.measuring_point_id), p.readings.length ? [p.readings[0]!, rows[0]!] : null);
        await output.write('readings', rows);
        this.written.readings += p.readings.length;
      }
    }
    await output.addOverview(billing, property, shape.units([unit]));
    this.written.units.add(unit.id);
  }

  /** Stops writing (the walk failed): settles once nothing is being written. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.chain;
  }

  /**
   * The Property's whole bill is made: what the stream wrote stays where it is the start of
   * what the bill writes, row for row; otherwise it is dropped. Says what stays written.
   */
  async settle(bill: Pick<PropertyBill, 'units'>, shape: Pick<Shape, 'readings'>): Promise<Written> {
    await this.stop();
    if (this.failure) throw this.failure.error;
    if (this.bills.length === 0) return NOTHING_WRITTEN;
    // a point's readings are shaped alike: its first reading, shaped as the whole Property is, says whether they still are
    const same =
      this.bills.every((b, k) => bill.units[k] === b) &&
      [...this.points.values()].every((p) => !p || JSON.stringify(shape.readings([p[0]])[0]) === JSON.stringify(p[1]));
    if (same) return this.written;
    await this.deps.output.rewind(this.mark!);
    this.rewound = true;
    return NOTHING_WRITTEN;
  }
}
