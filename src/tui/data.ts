// The seam between the screens and the outside world. Screens only see BrowseData;
// the real one wraps the shared paced ApiClient and the pure billing module, and
// tests pass a fake built from plain objects. Loading is lazy: nothing is fetched
// until a screen asks for it, and a Property is fetched once per range.
import type { ApiClient, ApiEvent } from '../api/contracts.js';
import { AccessWithdrawnError } from '../core/errors.js';
import type { MeasuringPoint, MeasuringPointConsumption, Property, UnitConsumption, UsageUnit } from '../api/types.js';
import type { PropertyBill, PropertyInput } from '../billing/property.js';
import type { Flag, FlagCode } from '../billing/types.js';
import { unknownValueFlags } from '../export/steps/unknown-values/index.js';
import { collectProperty, propertiesInScope } from '../api/walk.js';
import { onePeriod } from '../api/answers.js';
import { reviewBundle, type BundleReview } from './compare.js';
import { checkSameLength, comparisonFor } from '../export/steps/plausibility/index.js';
import { rangeKey, type DateRange } from './range.js';
import { t } from './texts.js';
import type { UviSettings } from '../uvi/inputs/index.js';

/** What billProperty (src/billing) returns; the browser reads totals and flags from it. */
export type BillResult = PropertyBill;

/** Billing's own input, whole (the Property's measuring-point list included: rule 7), as the export passes it. */
export type BillInput = PropertyInput;

export type BillPropertyFn = (input: BillInput) => BillResult | Promise<BillResult>;
export type FlagTextFn = (code: FlagCode, lang: 'en' | 'de', metric?: string) => { title: string; explanation: string };

/** Everything about one Property over one range, after billing. */
export interface PropertyBundle {
  property: Property;
  /** The range asked for. */
  range: DateRange;
  /** The range the service answered for (widened to months, capped at the last completed month). */
  effective: DateRange;
  units: { unit: UsageUnit; consumption: UnitConsumption }[];
  /** Plant-room and main meters: points allocated to no unit. */
  plant: { point: MeasuringPoint; consumption: MeasuringPointConsumption }[];
  /** Every point of the Property by id, for localization and system link. */
  points: Map<string, MeasuringPoint>;
  /** With a comparison range: the plausibility review (its findings are also in bill.flags). */
  review?: BundleReview;
  bill: BillResult;
}

export interface LoadProgress {
  /** Units whose consumption has arrived. */
  done: number;
  /** The Property's unit count when the service states it. */
  total: number | null;
}

export interface BrowseData {
  listProperties(): Promise<Property[]>;
  /** Fetches and bills one Property for a range; cached per Property and range. */
  loadProperty(property: Property, range: DateRange, onProgress?: (p: LoadProgress) => void): Promise<PropertyBundle>;
  /** Flags of a Property already loaded for this range, or null when it has not been opened yet (loading stays lazy). */
  cachedFlags(propertyId: string, range: DateRange): Flag[] | null;
  flagText: FlagTextFn;
  /** API events (rate limiting, retries) while the UI waits; returns the unsubscribe function. */
  onEvent(listener: (e: ApiEvent) => void): () => void;
  /**
   * Writes the export files for one Property (or one unit of it) and says where;
   * absent when this build has no export module to call.
   */
  exportSelection?: (s: ExportSelection, onNote?: (line: string) => void) => Promise<string>;
  /** The monthly screen's inputs as `meterdata uvi` takes them (--benchmark, --ww-temperature, --plant-meters); absent: its defaults. */
  uviSettings?: UviSettings;
}

export interface ExportSelection {
  property: Property;
  range: DateRange;
  /** Only this unit (its rows, no plant-room meters); the folder is named after it. */
  unitId?: string;
  unitName?: string;
}

/** An ApiEvent fan-out: the client is created with `emit` as onEvent before the screens subscribe. */
export function eventHub(): { emit: (e: ApiEvent) => void; subscribe: (l: (e: ApiEvent) => void) => () => void } {
  const listeners = new Set<(e: ApiEvent) => void>();
  return {
    emit: (e) => {
      for (const l of listeners) l(e);
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

export interface BrowseDataDeps {
  api: ApiClient;
  billProperty: BillPropertyFn;
  flagText: FlagTextFn;
  /** Subscribe to the client's events (see eventHub). */
  subscribe?: (l: (e: ApiEvent) => void) => () => void;
  exportSelection?: (s: ExportSelection, onNote?: (line: string) => void) => Promise<string>;
  /** The access token the next request would use (Credentials.currentToken): a change triggers the scope re-check. */
  currentToken?: () => Promise<string>;
  uviSettings?: UviSettings;
}

/** What browse keeps between loads, and the access token it was fetched with. */
interface BrowseCache {
  properties: Promise<Property[]> | null;
  bundles: Map<string, Promise<PropertyBundle>>;
  flagsSeen: Map<string, Flag[]>;
  cachedWith: string | null;
}

/**
 * Spec "Property scope" rule 4: Property data is not kept across a token change
 * without re-checking /whoami. After a change the list is fetched again and a
 * cached Property is shown only while the grant still covers it.
 */
async function revalidate(deps: BrowseDataDeps, cache: BrowseCache, propertyId: string | null): Promise<void> {
  if (!deps.currentToken) return;
  const token = await deps.currentToken();
  if (cache.cachedWith === null) {
    cache.cachedWith = token;
    return;
  }
  if (token === cache.cachedWith) return;
  const who = await deps.api.whoami();
  cache.cachedWith = token;
  cache.properties = null;
  if (who.property_scope === 'all') return;
  const allowed = new Set(who.property_scope);
  for (const key of [...cache.bundles.keys()]) {
    if (allowed.has(key.split('|')[0]!)) continue;
    cache.bundles.delete(key);
    cache.flagsSeen.delete(key);
  }
  if (propertyId !== null && !allowed.has(propertyId)) {
    throw new AccessWithdrawnError(t.scopeLost, { hint: t.scopeLostHint });
  }
}

export function createBrowseData(deps: BrowseDataDeps): BrowseData {
  const { api } = deps;
  const cache: BrowseCache = { properties: null, bundles: new Map(), flagsSeen: new Map(), cachedWith: null };
  const { bundles, flagsSeen } = cache;

  async function fetchProperty(property: Property, range: DateRange, onProgress?: (p: LoadProgress) => void): Promise<PropertyBundle> {
    // The export's walk: the same requests in the same order, so the screen and the
    // billing sheet rest on the same answers.
    const total = property.usage_unit_count ?? null;
    let done = 0;
    onProgress?.({ done, total });
    const answers = await collectProperty(api, property, {
      range: { from: range.from, to: range.to },
      metrics: [],
      onUnit: () => onProgress?.({ done: ++done, total }),
    });
    const { units, plantPoints: plant } = answers;
    // Billing and the chart use the range the service echoed (widened and capped).
    // one period for every unit (onePeriod): the comparison is an ordinary load, so it is held to one too
    const effective = onePeriod(property.name, units, range) ?? range;
    // The export's input and its extra review flags (src/export/steps), so a unit
    // shows here what the billing sheet and review.csv say about it.
    const billed = await deps.billProperty({
      property: { id: property.id, name: property.name, usage_unit_count: property.usage_unit_count },
      range: effective,
      units,
      plantPoints: plant,
      points: answers.points,
    });
    let bill: BillResult = { ...billed, flags: [...billed.flags, ...unknownValueFlags(answers, billed.flags)] };
    const points = new Map(answers.points.filter((p) => p.id).map((p) => [p.id!, p]));
    let review: BundleReview | undefined;
    if (range.compare) {
      // The comparison period is an ordinary load of its own range (cached like any other); where the service
      // answered for fewer months (this year's up to its last completed month), the same months of the
      // comparison year, as the export takes them (same-length.ts): ten months beside twelve are no comparison.
      const previous = await load(property, comparisonFor(range.compare, { from: range.from, to: range.to }, effective), onProgress);
      checkSameLength(effective, previous.effective);
      review = reviewBundle({ property, effective, units, bill }, previous);
      bill = { ...bill, flags: [...bill.flags, ...review.flags] };
    }
    flagsSeen.set(`${property.id}|${rangeKey(range)}`, bill.flags);
    return { property, range, effective, units, plant, points, bill, ...(review ? { review } : {}) };
  }

  async function load(property: Property, range: DateRange, onProgress?: (p: LoadProgress) => void): Promise<PropertyBundle> {
    await revalidate(deps, cache, property.id);
    const key = `${property.id}|${rangeKey(range)}`;
    let p = bundles.get(key);
    if (!p) {
      p = fetchProperty(property, range, onProgress).catch((e: unknown) => {
        bundles.delete(key);
        throw e;
      });
      bundles.set(key, p);
    }
    return p;
  }

  return {
    async listProperties() {
      await revalidate(deps, cache, null);
      cache.properties ??= propertiesInScope(api, []).catch((e: unknown) => {
        cache.properties = null; // a failed load is retried next time, not cached
        throw e;
      });
      return cache.properties;
    },
    loadProperty: load,
    cachedFlags(propertyId, range) {
      return flagsSeen.get(`${propertyId}|${rangeKey(range)}`) ?? null;
    },
    flagText: deps.flagText,
    onEvent(listener) {
      return deps.subscribe ? deps.subscribe(listener) : () => {};
    },
    ...(deps.exportSelection ? { exportSelection: deps.exportSelection } : {}),
    ...(deps.uviSettings ? { uviSettings: deps.uviSettings } : {}),
  };
}
