// The run's record of where each device hangs (src/api/device-places.ts): one number per place, so the windows
// and Properties it compares must survive the packing.
import { describe, expect, it } from 'vitest';
import { DevicePlaces } from '../../src/api/device-places.js';
import type { DeviceSegment } from '../../src/api/types.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const DEV = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
const seg = (installed_at: string | null, deinstalled_at: string | null, device_id = DEV) =>
  ({ device_id, serial: 'S-1', installed_at, deinstalled_at }) as DeviceSegment;

function conflict(first: [string, DeviceSegment], second: [string, DeviceSegment]): unknown {
  const d = new DevicePlaces();
  d.note('GET x', first[0], 'p1', [first[1]]);
  try {
    d.note('GET y', second[0], 'p2', [second[1]]);
    return null;
  } catch (e) {
    return e;
  }
}

describe('one device, two Properties', () => {
  it.each([
    ['both open', seg(null, null), seg(null, null), true],
    ['overlapping by a month', seg('2024-01-01', '2025-02-01'), seg('2025-01-01', null), true],
    ['moved on the day it was removed', seg('2020-01-01', '2025-03-15'), seg('2025-03-15', null), false],
    ['moved a year later', seg('2020-01-01', '2024-03-15'), seg('2025-03-15', null), false],
    ['installed before 1900 (a typo) and open', seg('1890-01-01', null), seg('2025-03-15', null), true],
    ['in the far future', seg('2300-01-01', null), seg('2025-01-01', '2299-12-31'), false],
  ] as const)('%s: conflict %s', (_name, a, b, expected) => {
    const e = conflict([A, a], [B, b]);
    if (expected) expect(e).toMatchObject({ code: 'API_BAD_ANSWER' });
    else expect(e).toBeNull();
  });

  it('the same Property (billing judges two points there), the same place again, ids in another case: no conflict', () => {
    expect(conflict([A, seg(null, null)], [A, seg(null, null)])).toBeNull();
    const d = new DevicePlaces();
    d.note('GET x', A, 'p1', [seg('2020-01-01', null)]);
    d.note('GET x', A.toUpperCase(), 'p1', [seg('2020-01-01', null, DEV.toUpperCase())]);
    expect(() => d.note('GET y', B.toUpperCase(), 'p2', [seg('2021-01-01', null, DEV.toUpperCase())])).toThrow(
      /at the same time at a measuring point of Property 1111/,
    );
  });

  it('names the other Property, this point and the device', () => {
    const e = conflict([A, seg(null, null)], [B, seg(null, null)]) as Error;
    expect(e.message).toContain(
      `device S-1 (${DEV}) is placed at measuring point p2 of Property ${B} and at the same time at a measuring point of Property ${A}`,
    );
  });
});
