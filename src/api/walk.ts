// The walk export and browse share: what one Property needs from the API (its units and
// their consumption, its measuring points, and the readings of the points allocated to no
// unit: plant room, main meters) and the Properties in scope. Every answer is kept (the
// export's journal stores them); no request is made twice. Unit consumption requests run
// concurrently (the connection paces); results keep list order.
import { checkPlantPeriod, contractRange } from './answers.js';
import type { ApiClient, RangeQuery } from './contracts.js';
import type { KnownMetric, MeasuringPoint, MeasuringPointConsumption, Property, UnitConsumption, UsageUnit } from './types.js';

/** Everything the API answered about one Property, as the walk collected it. */
export interface PropertyAnswers {
  property: Property;
  units: { unit: UsageUnit; consumption: UnitConsumption }[];
  /** Every measuring point listed for the Property (with and without a unit). */
  points: MeasuringPoint[];
  plantPoints: { point: MeasuringPoint; consumption: MeasuringPointConsumption }[];
}

/**
 * Runs `fn` over `items` with at most `limit` in flight; stops starting new ones after a
 * failure, or once `stop` is aborted (then rejects with its reason when those in flight end).
 */
export async function mapPool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>, stop?: AbortSignal): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      stop?.throwIfAborted();
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Every item of a paged list; with `stop`, no next page is asked for once it is aborted. */
async function all<T>(it: AsyncIterable<T>, stop?: AbortSignal): Promise<T[]> {
  const out: T[] = [];
  stop?.throwIfAborted();
  for await (const x of it) {
    stop?.throwIfAborted(); // leaving the loop ends the iterator: the next page is never requested
    out.push(x);
  }
  return out;
}

export interface WalkOptions {
  range: RangeQuery;
  /** Empty: all metrics. */
  metrics: KnownMetric[];
  /** Requests in flight per Property (the client's own pacing still applies). */
  concurrency?: number;
  onUnit?: (unit: UsageUnit) => void;
  /** Called with the Property's unit and point lists before any consumption is asked for. */
  onLists?: (units: UsageUnit[], points: MeasuringPoint[]) => void;
  /** The order to ask for the units' consumption in, as indexes into the unit list (default: list order). */
  askOrder?: (units: UsageUnit[]) => number[];
  /** Each unit's answer as it comes, with the unit's index in the list. */
  onAnswer?: (index: number, entry: { unit: UsageUnit; consumption: UnitConsumption }) => void;
  /**
   * No request is started once this is aborted: the export stopped (a failure at another
   * Property), and answers nobody writes would spend the connection's requests.
   */
  stop?: AbortSignal;
}

export async function collectProperty(api: ApiClient, property: Property, opts: WalkOptions): Promise<PropertyAnswers> {
  const [units, points] = await Promise.all([
    all(api.listUsageUnits({ propertyId: property.id }), opts.stop),
    all(api.listPropertyMeasuringPoints(property.id), opts.stop),
  ]);
  const wanted = (m: string | undefined) => opts.metrics.length === 0 || (m !== undefined && (opts.metrics as string[]).includes(m));
  // A plant-room or main meter has no unit and no allocations; one with allocations breaks the contract and is billed nowhere (billing/contract.ts).
  const plant = points.filter(
    (p): p is MeasuringPoint & { id: string } => (p.usage_unit_id ?? null) === null && !p.allocations?.length && typeof p.id === 'string' && wanted(p.metric),
  );
  const query = { from: opts.range.from, to: opts.range.to, ...(opts.metrics.length ? { metrics: opts.metrics } : {}) };
  const limit = opts.concurrency ?? 8;
  opts.onLists?.(units, points);
  const order = askOrder(units, opts.askOrder);
  const unitAnswers = new Array<{ unit: UsageUnit; consumption: UnitConsumption }>(units.length);
  const [, plantAnswers] = await Promise.all([
    mapPool(
      order,
      limit,
      async (i) => {
        const unit = units[i]!;
        const entry = { unit, consumption: await api.unitConsumption(unit.id, query) };
        unitAnswers[i] = entry;
        opts.onUnit?.(unit);
        opts.onAnswer?.(i, entry);
      },
      opts.stop,
    ),
    mapPool(plant, limit, async (point) => ({ point, consumption: await api.pointReadings(point.id, opts.range) }), opts.stop),
  ]);
  return { property, units: unitAnswers, points, plantPoints: plantAnswers };
}

/**
 * The /readings answers echo no period: held by their readings' dates to the one the units' answers echo
 * (whether those agree is the caller's to check), else to what the range rules make of the requested range.
 */
export function checkPlantPeriods(answers: PropertyAnswers, requested: RangeQuery, now: Date): void {
  const first = answers.units[0]?.consumption;
  // units of two periods are refused as such (EXPORT_PERIOD_CHANGED), which starts the next run over
  if (first && answers.units.some(({ consumption: c }) => c.from !== first.from || c.to !== first.to)) return;
  const period = first ?? contractRange(requested, now);
  for (const { consumption } of answers.plantPoints) checkPlantPeriod(answers.property.name, consumption, { from: period.from, to: period.to });
}

/** The given order when it names each unit once, else list order. */
function askOrder(units: UsageUnit[], given: WalkOptions['askOrder']): number[] {
  const order = given?.(units);
  const each =
    order && order.length === units.length && new Set(order).size === units.length && order.every((i) => Number.isInteger(i) && i >= 0 && i < units.length);
  return each ? order : units.map((_, i) => i);
}

/** The Properties to export, in the order the service lists them (or as given with --property). */
export async function propertiesInScope(api: ApiClient, ids: string[]): Promise<Property[]> {
  if (ids.length === 0) return all(api.listProperties());
  const out: Property[] = [];
  for (const id of ids) out.push(await api.getProperty(id));
  return out;
}
