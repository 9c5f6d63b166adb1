// Builders for device and point records shared by the fixed and the generated part of the data set.
import { hash32 } from './prng.js';
import type { DeviceRec, KnownMetricName, PointRec } from './model.js';

const KIND: Record<KnownMetricName, { manufacturer: string; deviceType: string; prefix: string; rateMilli: number; startMilli: number }> = {
  heat: { manufacturer: 'Nordtherm Messtechnik', deviceType: 'Wärmemengenzähler', prefix: 'WMZ', rateMilli: 600_000, startMilli: 4_250_000 },
  hca: { manufacturer: 'Calora Systeme', deviceType: 'Heizkostenverteiler elektronisch', prefix: 'HKV', rateMilli: 45_000, startMilli: 120_000 },
  water_cold: { manufacturer: 'Aquametra', deviceType: 'Kaltwasserzähler', prefix: 'KWZ', rateMilli: 3_400, startMilli: 180_000 },
  water_warm: { manufacturer: 'Aquametra', deviceType: 'Warmwasserzähler', prefix: 'WWZ', rateMilli: 2_100, startMilli: 95_000 },
  water_outdoor: { manufacturer: 'Aquametra', deviceType: 'Gartenwasserzähler', prefix: 'GWZ', rateMilli: 1_500, startMilli: 22_000 },
};

export type DeviceOpts = Partial<Omit<DeviceRec, 'key' | 'pointKey' | 'metric' | 'serial'>> & { installedAt?: string | null };

/** A device record with metric-typical defaults; `anchor` defaults to installedAt. */
export function device(seed: string, pointKey: number, k: number, metric: KnownMetricName, opts: DeviceOpts): DeviceRec {
  const kind = KIND[metric];
  const key = pointKey * 4 + k;
  const h = hash32(`${seed}|serial|${key}`);
  const installedAt = opts.installedAt === undefined ? '2019-05-14' : opts.installedAt;
  const spread = 0.6 + (h % 800) / 1000; // 0.6 .. 1.4 of the typical rate
  return {
    key,
    pointKey,
    metric,
    serial: `${kind.prefix}-${String(h % 100_000_000).padStart(8, '0')}`,
    manufacturer: kind.manufacturer,
    deviceType: kind.deviceType,
    anchor: opts.anchor ?? installedAt ?? '2019-01-01',
    deinstalledAt: null,
    replacementReason: null,
    factor: '1',
    startMilli: Math.round(kind.startMilli * spread),
    startKind: 'recorded',
    rateMilli: Math.round(kind.rateMilli * spread),
    anomalies: false,
    ...opts,
    installedAt,
  };
}

/** Replaces `old` on `day`: the old device is removed as DeviceReplacement, the new one starts that day. */
export function replace(seed: string, old: DeviceRec, day: string, opts: DeviceOpts = {}): DeviceRec[] {
  const removed: DeviceRec = { ...old, deinstalledAt: day, replacementReason: 'DeviceReplacement' };
  const startMilli = opts.startKind === 'assumed_zero' ? 0 : (opts.startMilli ?? 0);
  const next = device(seed, old.pointKey, (old.key % 4) + 1, old.metric, {
    factor: old.factor,
    anomalies: old.anomalies,
    ...opts,
    installedAt: day,
    startMilli,
  });
  return [removed, next];
}

export function point(propertyIdx: number, key: number, metric: KnownMetricName, localization: string | null, rest: Partial<PointRec> = {}): PointRec {
  return { key, propertyIdx, metric, localization, isDifference: false, isSystemLinked: true, allocations: [], devices: [], ...rest };
}

/** Key of the j-th point slot of a unit / of a Property (plant room, main meters). */
export const unitSlot = (unitIdx: number, j: number): number => 2 * (unitIdx * 16 + j);
export const propertySlot = (propertyIdx: number, j: number): number => 2 * (propertyIdx * 16 + j) + 1;
