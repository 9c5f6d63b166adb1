// The sandbox's synthetic data set: a deterministic model (seed + number of units) with read-only
// queries. Structure of the fixed Property 0 is materialised; the generated bulk and all month-end
// values are computed on demand. docs/sandbox-data.md lists the special cases and the formula.
import type { Directory } from '../contracts.js';
import { miOf, type IsoDate } from './dates.js';
import { pointConsumption, type PointConsumptionModel } from './consumption.js';
import { genericProperties, genericPropertyPoints, genericUnit, genericUnitPoints } from './generic.js';
import type { DeviceRec, PointRec, PropertyRec, TenantRec, UnitRec } from './model.js';
import { hash32, Ids } from './prng.js';
import { Series, type MonthValue } from './series.js';
import { withReviewProperty } from './review.js';
import { rheinblick, RHEINBLICK_BASE, RHEINBLICK_TENANT_NAME } from './rheinblick.js';
import { specialProperty, SPECIAL_UNIT_COUNT } from './special.js';

export type { AddressRec, Allocation, DeviceRec, PointRec, PropertyRec, TenantRec, UnitRec } from './model.js';
export type { MonthValue } from './series.js';
export type { PointConsumptionModel, Segment } from './consumption.js';
export { billableValue, weightedValue } from './consumption.js';
export { HORIZON } from './series.js';
export { RHEINBLICK_BASE, RHEINBLICK_TENANT_NAME } from './rheinblick.js';

export const DEFAULT_UNITS = 60;
export const DEFAULT_SEED = 'meterdata';
/** The landlords of the generated data set (Wohnbau Rheinblick eG, the third tenant, has only fixed Properties). */
export const TENANT_NAMES = ['Hausverwaltung Nordlicht GmbH', 'Immobilien Süd KG'];

/** A point of a unit together with that unit's share of it. */
export interface UnitPoint {
  point: PointRec;
  share: string;
}

export class Dataset implements Directory {
  readonly seed: string;
  readonly unitCount: number;
  readonly ids: Ids;
  readonly series: Series;
  private readonly tenantRecs: TenantRec[] = [...TENANT_NAMES, RHEINBLICK_TENANT_NAME].map((name, idx) => ({ idx, name }));
  private readonly propertyRecs: PropertyRec[];
  /** Wohnbau Rheinblick eG's Properties, indices from RHEINBLICK_BASE on: outside propertyRecs, whatever --units is. */
  private readonly rheinblickRecs: PropertyRec[];
  private readonly specialUnits: UnitRec[];
  private readonly specialPoints = new Map<number, PointRec>();
  private readonly specialUnitPoints = new Map<number, UnitPoint[]>();
  /** Units of the review Property and of Rheinblick (materialised like Property 0's), by index. */
  private readonly fixedUnits = new Map<number, UnitRec>();
  private readonly reviewIdx: number;

  constructor(seed: string, units: number) {
    this.seed = seed;
    this.unitCount = units;
    this.ids = new Ids(seed);
    this.series = new Series(seed);
    const special = specialProperty(seed, units);
    this.specialUnits = special.part.units;
    const review = withReviewProperty(seed, genericProperties(seed, special.property.unitEnd, units), units);
    this.propertyRecs = [special.property, ...review.properties];
    this.reviewIdx = review.part?.units[0]?.propertyIdx ?? -1;
    const extra = rheinblick(seed, TENANT_NAMES.length);
    this.rheinblickRecs = extra.properties;
    for (const u of [...(review.part?.units ?? []), ...extra.part.units]) this.fixedUnits.set(u.idx, u);
    for (const p of [...special.part.points, ...(review.part?.points ?? []), ...extra.part.points]) {
      this.specialPoints.set(p.key, p);
      for (const a of p.allocations) {
        const list = this.specialUnitPoints.get(a.unitIdx) ?? [];
        list.push({ point: p, share: a.share });
        this.specialUnitPoints.set(a.unitIdx, list);
      }
    }
  }

  // --- Directory (consent page) ---
  tenants(): { id: string; name: string }[] {
    return this.tenantRecs.map((t) => ({ id: this.tenantId(t), name: t.name }));
  }
  propertiesOf(tenantId: string): { id: string; name: string }[] {
    return this.properties(tenantId).map((p) => ({ id: this.propertyId(p), name: p.name }));
  }

  // --- ids ---
  tenantId(t: TenantRec | number): string {
    return this.ids.of('tenant', typeof t === 'number' ? t : t.idx);
  }
  propertyId(p: PropertyRec | number): string {
    return this.ids.of('property', typeof p === 'number' ? p : p.idx);
  }
  unitId(u: UnitRec | number): string {
    return this.ids.of('unit', typeof u === 'number' ? u : u.idx);
  }
  pointId(p: PointRec): string {
    return this.ids.of('point', p.key);
  }
  deviceId(d: DeviceRec): string {
    return this.ids.of('device', d.key);
  }

  // --- structure ---
  tenant(id: string): TenantRec | undefined {
    const k = this.ids.parse('tenant', id);
    return k === undefined ? undefined : this.tenantRecs[k];
  }
  /** Properties in stable order: of one tenant, or without a tenant those of the generated landlords (not Rheinblick's). */
  properties(tenantId?: string): PropertyRec[] {
    if (tenantId === undefined) return this.propertyRecs;
    const t = this.tenant(tenantId);
    if (t?.name === RHEINBLICK_TENANT_NAME) return this.rheinblickRecs;
    return t ? this.propertyRecs.filter((p) => p.tenantIdx === t.idx) : [];
  }
  property(id: string): PropertyRec | undefined {
    const k = this.ids.parse('property', id);
    return k === undefined ? undefined : this.propertyByIndex(k);
  }
  propertyByIndex(idx: number): PropertyRec | undefined {
    return idx >= RHEINBLICK_BASE ? this.rheinblickRecs[idx - RHEINBLICK_BASE] : this.propertyRecs[idx];
  }
  unitByIndex(idx: number): UnitRec | undefined {
    const fixed = this.fixedUnits.get(idx);
    if (fixed) return fixed;
    if (idx < 0 || idx >= this.unitCount) return undefined;
    if (idx < this.specialUnits.length) return this.specialUnits[idx];
    const prop = this.propertyOfUnit(idx);
    return prop && genericUnit(this.seed, prop, idx);
  }
  unit(id: string): UnitRec | undefined {
    const k = this.ids.parse('unit', id);
    return k === undefined ? undefined : this.unitByIndex(k);
  }
  /** Points allocated to a unit (shared ones included) with the unit's share, in slot order. */
  pointsOfUnit(u: UnitRec): UnitPoint[] {
    if (u.propertyIdx === 0 || this.fixedUnits.has(u.idx)) return this.specialUnitPoints.get(u.idx) ?? [];
    return genericUnitPoints(this.seed, u).map((point) => ({ point, share: '1' }));
  }
  /** Every point of a Property: unit points (each once) in unit order, then plant-room and main meters. */
  pointsOfProperty(p: PropertyRec): PointRec[] {
    if (p.idx === 0 || p.idx === this.reviewIdx || p.idx >= RHEINBLICK_BASE)
      return [...this.specialPoints.values()].filter((x) => x.propertyIdx === p.idx).sort((a, b) => orderKey(a) - orderKey(b));
    const out: PointRec[] = [];
    for (let u = p.unitStart; u < p.unitEnd; u++) out.push(...genericUnitPoints(this.seed, this.unitByIndex(u)!));
    return [...out, ...genericPropertyPoints(this.seed, p)];
  }
  point(id: string): PointRec | undefined {
    const k = this.ids.parse('point', id);
    return k === undefined ? undefined : this.pointByKey(k);
  }
  pointByKey(key: number): PointRec | undefined {
    const slot = Math.floor(key / 2);
    const owner = Math.floor(slot / 16);
    if (key % 2 === 1) {
      if (owner === 0 || owner === this.reviewIdx || owner >= RHEINBLICK_BASE) return this.specialPoints.get(key);
      const prop = this.propertyRecs[owner];
      return prop && genericPropertyPoints(this.seed, prop).find((p) => p.key === key);
    }
    if (owner < this.specialUnits.length || this.fixedUnits.has(owner)) return this.specialPoints.get(key);
    const u = this.unitByIndex(owner);
    return u && genericUnitPoints(this.seed, u).find((p) => p.key === key);
  }
  device(id: string): DeviceRec | undefined {
    const k = this.ids.parse('device', id);
    return k === undefined ? undefined : this.pointByKey(Math.floor(k / 4))?.devices.find((d) => d.key === k);
  }
  /** Primary unit of a point: highest share, tie smallest unit id; undefined for plant-room meters. */
  primaryUnit(p: PointRec): number | undefined {
    let best: { idx: number; share: number; id: string } | undefined;
    for (const a of p.allocations) {
      const c = { idx: a.unitIdx, share: Number(a.share), id: this.unitId(a.unitIdx) };
      if (!best || c.share > best.share || (c.share === best.share && c.id < best.id)) best = c;
    }
    return best?.idx;
  }
  /** The device installed now (last one, unless removed); null for difference meters and removed points. */
  activeDevice(p: PointRec): DeviceRec | null {
    const last = p.devices[p.devices.length - 1];
    return last && last.deinstalledAt === null ? last : null;
  }

  // --- values ---
  /** Raw month-end values of a device for the months of [from, to] it covers. */
  monthValues(d: DeviceRec, from: IsoDate, to: IsoDate): MonthValue[] {
    return this.series.monthValues(d, miOf(from), miOf(to));
  }
  /** Cumulative value (milli-units) of a device on any day since its anchor. */
  valueAt(d: DeviceRec, date: IsoDate): number {
    return this.series.valueAt(d, date);
  }
  /** Segments and billable values of a point over whole months [fromMi, toMi] (effective range). */
  consumption(p: PointRec, fromMi: number, toMi: number): PointConsumptionModel {
    return pointConsumption(this.series, p, fromMi, toMi);
  }

  private propertyOfUnit(idx: number): PropertyRec | undefined {
    let lo = 0;
    let hi = this.propertyRecs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.propertyRecs[mid]!.unitStart <= idx) lo = mid;
      else hi = mid - 1;
    }
    const p = this.propertyRecs[lo];
    return p && idx >= p.unitStart && idx < p.unitEnd ? p : undefined;
  }
}

const orderKey = (p: PointRec): number => (p.key % 2 === 1 ? 1e12 + p.key : p.key);

/** The synthetic data set: same seed and units, same data. */
export function generateDataset(opts: { seed?: string | number; units?: number } = {}): Dataset {
  const units = opts.units ?? DEFAULT_UNITS;
  if (!Number.isInteger(units) || units < 1 || units > 50_000) throw new RangeError(`units must be an integer from 1 to 50000, got ${units}`);
  return new Dataset(String(opts.seed ?? DEFAULT_SEED), units);
}

export { SPECIAL_UNIT_COUNT, hash32 };
