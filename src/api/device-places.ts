// One device hangs at one place at a time. Within a Property billing judges a device under two points
// (src/billing/devices.ts, DEVICE_AT_TWO_POINTS: neither billed); across the Properties of one run nothing did,
// and a server that sent one building's meter also under a flat of another building had it billed in both
// (round 26: 44.393 m³ twice, exit 0). The Properties before are committed to the run's files by then, so the
// run stops instead (API_BAD_ANSWER, exit 5, nothing committed). Kept per run: a device's places as short
// strings, at most MAX_PLACES per device.
import { ServiceUnavailableError } from '../core/errors.js';
import type { DeviceSegment } from './types.js';
import { t } from './texts.js';

const MAX_PLACES = 64;
const OPEN_END = '9999-12-31';

interface Place {
  property: string;
  point: string;
  start: string;
  end: string;
}

export class DevicePlaces {
  /** device id (lower case) -> its places, "property point start end" each. */
  private readonly byDevice = new Map<string, string[]>();

  /** Notes the segments of point `pointId` of Property `propertyId`; throws where a device's window overlaps one at another Property's point. */
  note(endpoint: string, propertyId: string | null | undefined, pointId: string, segments: readonly DeviceSegment[]): void {
    if (!propertyId) return; // a unit or point this client never listed: its Property is not known here
    const property = propertyId.toLowerCase();
    const point = pointId.toLowerCase();
    for (const s of segments) {
      const here: Place = { property, point, start: s.installed_at ?? '', end: s.deinstalled_at ?? OPEN_END };
      const key = s.device_id.toLowerCase();
      const places = this.byDevice.get(key) ?? [];
      const text = `${here.property} ${here.point} ${here.start} ${here.end}`;
      if (places.includes(text)) continue;
      const other = places.map(parse).find((o) => o.property !== here.property && o.start < here.end && here.start < o.end);
      if (other || places.length >= MAX_PLACES) throw twoProperties(endpoint, s, here, other ?? parse(places[0]!));
      places.push(text);
      this.byDevice.set(key, places);
    }
  }
}

function parse(text: string): Place {
  const [property, point, start, end] = text.split(' ') as [string, string, string, string];
  return { property, point, start, end };
}

function twoProperties(endpoint: string, s: DeviceSegment, here: Place, other: Place): ServiceUnavailableError {
  const problem = t.deviceTwoProperties({
    serial: s.serial,
    device: s.device_id,
    point: here.point,
    property: here.property,
    otherPoint: other.point,
    otherProperty: other.property,
  });
  return new ServiceUnavailableError(t.badAnswer({ endpoint, problem }), {
    code: 'API_BAD_ANSWER',
    hint: t.badAnswerHint,
    details: { endpoint, field: 'segments.device_id', device: s.device_id, other_point: other.point, other_property: other.property },
  });
}
