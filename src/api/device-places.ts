// One device hangs at one place at a time. Within a Property billing judges a device under two points
// (src/billing/devices.ts, DEVICE_AT_TWO_POINTS: neither billed); across the Properties of one run nothing did,
// and a server that sent one building's meter also under a flat of another building had it billed in both
// (round 26: 44.393 m³ twice, exit 0). The Properties before are committed to the run's files by then, so the
// run stops instead (API_BAD_ANSWER, exit 5, nothing committed). Kept for the whole run, so compact: a device's
// place is one number (the Property's index and its installation window in days), about 100 bytes a device.
import { ServiceUnavailableError } from '../core/errors.js';
import type { DeviceSegment } from './types.js';
import { t } from './texts.js';

const MAX_PLACES = 64;
/** Days from 1900-01-01; a window's open start is day 0, its open end the last day 17 bits hold (2258). */
const DAY_BITS = 17;
const OPEN_END = 2 ** DAY_BITS - 1;
const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(1900, 0, 1);

interface Place {
  property: number;
  start: number;
  end: number;
}

const dayOf = (date: string | null, open: number): number => {
  if (date === null) return open;
  const d = Math.round((Date.parse(date) - EPOCH) / DAY_MS);
  return Number.isFinite(d) ? Math.min(Math.max(d, 0), OPEN_END) : open;
};
const pack = (p: Place): number => (p.property * 2 ** DAY_BITS + p.start) * 2 ** DAY_BITS + p.end;
const unpack = (n: number): Place => ({
  property: Math.floor(n / 2 ** (2 * DAY_BITS)),
  start: Math.floor(n / 2 ** DAY_BITS) % 2 ** DAY_BITS,
  end: n % 2 ** DAY_BITS,
});

export class DevicePlaces {
  /** device id (lower case) -> its place, or places (a device moved). */
  private readonly byDevice = new Map<string, number | number[]>();
  private readonly properties: string[] = [];
  private readonly propertyIndex = new Map<string, number>();

  /** Notes the segments of point `pointId` of Property `propertyId`; throws where a device's window overlaps one at another Property. */
  note(endpoint: string, propertyId: string | null | undefined, pointId: string, segments: readonly DeviceSegment[]): void {
    if (!propertyId) return; // a unit or point this client never listed: its Property is not known here
    const property = this.indexOf(propertyId.toLowerCase());
    for (const s of segments) {
      const here: Place = { property, start: dayOf(s.installed_at, 0), end: dayOf(s.deinstalled_at, OPEN_END) };
      const key = s.device_id.toLowerCase();
      const known = this.byDevice.get(key);
      const places = known === undefined ? [] : typeof known === 'number' ? [known] : known;
      const packed = pack(here);
      if (places.includes(packed)) continue;
      const other = places.map(unpack).find((o) => o.property !== here.property && o.start < here.end && here.start < o.end);
      if (other || places.length >= MAX_PLACES) throw this.twoProperties(endpoint, s, pointId, propertyId, other ?? unpack(places[0]!));
      this.byDevice.set(key, places.length === 0 ? packed : [...places, packed]);
    }
  }

  private indexOf(property: string): number {
    let i = this.propertyIndex.get(property);
    if (i === undefined) {
      i = this.properties.push(property) - 1;
      this.propertyIndex.set(property, i);
    }
    return i;
  }

  private twoProperties(endpoint: string, s: DeviceSegment, point: string, property: string, other: Place): ServiceUnavailableError {
    const otherProperty = this.properties[other.property]!;
    const problem = t.deviceTwoProperties({ serial: s.serial, device: s.device_id, point, property, otherProperty });
    return new ServiceUnavailableError(t.badAnswer({ endpoint, problem }), {
      code: 'API_BAD_ANSWER',
      hint: t.badAnswerHint,
      details: { endpoint, field: 'segments.device_id', device: s.device_id, point, other_property: otherProperty },
    });
  }
}
