// The ids of this client's answers, kept with a name and the Property they belong to, so a
// later 404 on one of them reads as withdrawn access (spec "Property scope" rule 4) and the
// message names what the landlord changed.
import type { MeasuringPoint, MeasuringPointConsumption, Property, UsageUnit } from './types.js';

export type Kind = 'property' | 'unit' | 'point';

/** What an earlier answer showed about an id. */
export interface Known {
  kind: Kind;
  name: string | null;
  propertyId: string | null;
}

const pointName = (metric: string | undefined, serial: string | null | undefined) => `${metric ?? 'measuring'} point${serial ? ` (device ${serial})` : ''}`;

export class SeenIds {
  private readonly seen = new Map<string, Known>();

  get(id: string): Known | undefined {
    return this.seen.get(id);
  }

  entries(): IterableIterator<[string, Known]> {
    return this.seen.entries();
  }

  /** The first name and Property heard for an id stay: a later, thinner answer does not erase them. */
  remember(kind: Kind, id: string | null | undefined, name: string | null = null, propertyId: string | null = null): void {
    if (!id) return;
    const known = this.seen.get(id);
    this.seen.set(id, { kind, name: known?.name ?? name, propertyId: known?.propertyId ?? (kind === 'property' ? id : propertyId) });
  }

  rememberProperty(p: Property): void {
    this.remember('property', p.id, p.name);
  }

  rememberUnit(u: UsageUnit): void {
    this.remember('unit', u.id, u.name, u.property_id);
    this.remember('property', u.property.id, u.property.name);
    for (const mp of u.measuring_points) this.remember('point', mp.measuring_point_id, pointName(mp.metric, mp.active_device_serial), u.property_id);
  }

  rememberPoint(p: MeasuringPoint): void {
    this.remember('point', p.id, pointName(p.metric, p.active_device?.serial), p.property_id);
    this.remember('property', p.property_id);
    this.remember('unit', p.usage_unit_id, null, p.property_id);
    for (const a of p.allocations ?? []) this.remember('unit', a.usage_unit_id, null, p.property_id);
  }

  rememberConsumption(c: MeasuringPointConsumption): void {
    this.remember('point', c.measuring_point_id, pointName(c.metric, c.segments.at(-1)?.serial));
  }

  /** A Property done with: its units and points are no longer kept (the Property itself stays, for the re-check after a refresh). */
  forgetProperty(propertyId: string): void {
    for (const [id, known] of this.seen) if (known.kind !== 'property' && known.propertyId === propertyId) this.seen.delete(id);
  }
}
