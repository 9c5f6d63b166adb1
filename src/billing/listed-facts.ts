// What an answer says of a listed meter that the Property's list says otherwise: the installation
// day, removal day or K-factor of the device the list shows as the point's active device, and
// whether the point is a difference meter. Each changes the billed figure (a removal frees the end
// value, an installation day inside the year drops the start value, a factor multiplies it, a
// difference meter bills nothing), so an answer that contradicts the list is not billed. Pure.
import type { Device, DeviceSegment, MeasuringPointConsumption } from '../api/types.js';
import { idKey } from './contract.js';
import { makeFlag, type FlagScope } from './flags.js';
import type { Flag } from './types.js';

/**
 * A segment of the listed device: the same id (ids compare case-insensitively). The id is the device's identity
 * (required in both); a serial is the manufacturer's and may come again on another device (an identical model
 * re-used, a serial re-issued), so it identifies the device only where the list gives no id.
 */
const isListedDevice = (s: Pick<DeviceSegment, 'device_id' | 'serial'>, device: Pick<Device, 'id' | 'serial'>): boolean =>
  typeof device.id === 'string'
    ? typeof s.device_id === 'string' && idKey(s.device_id) === idKey(device.id)
    : typeof device.serial === 'string' && s.serial === device.serial;

/**
 * A segment of the listed device's current window, the one the list shows: the list is queried now, so a window of
 * the same device that ended on or before the list's installation day (removed for repair, fitted again later) is an
 * earlier one, true beside the list. Without a day on either side nothing tells them apart: the segment is current.
 */
export const ofListedWindow = (
  s: Pick<DeviceSegment, 'device_id' | 'serial' | 'deinstalled_at'>,
  device: Pick<Device, 'id' | 'serial' | 'installed_at'>,
): boolean =>
  isListedDevice(s, device) && !(typeof s.deinstalled_at === 'string' && typeof device.installed_at === 'string' && s.deinstalled_at <= device.installed_at);

/**
 * Per segment of the listed active device's current window (ofListedWindow), each of installed_at, deinstalled_at and factor that the answer gives
 * otherwise (facts serial, field, received, listed). installed_at is compared only where both give a day: the
 * contract lets either leave an undocumented day null, and null is then no claim. deinstalled_at: the list's
 * active device is current, so while the list shows it not removed (null) any removal day in the answer
 * contradicts it; a day in both must be the same. The factor is compared as a number.
 */
function devicesNotAsListed(
  c: Pick<MeasuringPointConsumption, 'segments'>,
  device: Device | undefined,
): { device_id: string; facts: Record<string, string> }[] {
  if (!device || !Array.isArray(c.segments)) return [];
  const out: { device_id: string; facts: Record<string, string> }[] = [];
  for (const s of c.segments.filter((x) => ofListedWindow(x, device))) {
    const serial = String(s.serial ?? s.device_id);
    const add = (field: string, received: unknown, listed: unknown) =>
      out.push({
        device_id: s.device_id,
        facts: { serial, field, received: received === null ? '' : String(received), listed: listed === null ? '' : String(listed) },
      });
    if (typeof s.installed_at === 'string' && typeof device.installed_at === 'string' && s.installed_at !== device.installed_at)
      add('installed_at', s.installed_at, device.installed_at);
    const removal = device.deinstalled_at;
    if (typeof s.deinstalled_at === 'string' && (removal === null || (typeof removal === 'string' && s.deinstalled_at !== removal)))
      add('deinstalled_at', s.deinstalled_at, removal);
    // a factor not sent is named once, as the contract break it is (IMPLAUSIBLE_VALUE, plausible.ts)
    if (typeof device.factor === 'number' && typeof s.factor === 'number' && s.factor !== device.factor) add('factor', s.factor, device.factor);
  }
  return out;
}

const kind = (difference: boolean) => (difference ? 'difference_meter' : 'metered');

/** Where the answer's is_difference_meter is not the list's (facts received, listed); null where they agree or the list says nothing. */
function differenceNotAsListed(c: Pick<MeasuringPointConsumption, 'is_difference_meter'>, listed: boolean | undefined): Record<string, string> | null {
  if (typeof listed !== 'boolean' || c.is_difference_meter === listed) return null;
  return { received: kind(c.is_difference_meter === true), listed: kind(listed) };
}

/**
 * The point's findings where its answer contradicts the list: DEVICE_NOT_AS_LISTED per field of the listed active device,
 * DIFFERENCE_NOT_AS_LISTED where the answer calls it a difference meter and the list does not, or the other way round.
 * Both are contract breaks (contract.ts): the point bills none of its segments.
 */
export function notAsListed(c: MeasuringPointConsumption, listed: { device: Device | undefined; difference: boolean | undefined }, scope: FlagScope): Flag[] {
  const devices = devicesNotAsListed(c, listed.device).map((d) => makeFlag('DEVICE_NOT_AS_LISTED', { ...scope, device_id: d.device_id }, d.facts));
  const difference = differenceNotAsListed(c, listed.difference);
  return difference ? [makeFlag('DIFFERENCE_NOT_AS_LISTED', scope, difference), ...devices] : devices;
}
