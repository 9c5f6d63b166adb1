// A fake BrowseData for the browser's component tests: realistic wire objects from
// the shared builders, billed by the real (pure) billing module, with loads the
// test can hold, fail or count.
import { render } from 'ink-testing-library';
import type { ApiEvent } from '../../src/api/contracts.js';
import { App } from '../../src/tui/app.js';
import type { MeterReading, Property, ReadingStatus } from '../../src/api/types.js';
import { billProperty, flagText, type Flag } from '../../src/billing/index.js';
import type { BrowseData, LoadProgress, PropertyBundle } from '../../src/tui/data.js';
import type { DateRange } from '../../src/tui/range.js';
import { aPlantPoint, aPointConsumption, aSegment, aUnitEntry, PROPERTY, RANGE, uuid } from './builders.js';

const ADDRESS = { street: 'Lindenstraße', house_number: '12', house_number_addition: null, postal_code: '10115', city: 'Berlin', country_code: 'DE' };

export function aProperty(overrides: Partial<Property> = {}): Property {
  return { id: PROPERTY.id, tenant_id: uuid(2), external_ref: null, name: PROPERTY.name, addresses: [ADDRESS], usage_unit_count: 3, ...overrides };
}

export const MARKT = aProperty({
  id: uuid(3),
  name: 'Am Markt 3',
  addresses: [{ ...ADDRESS, street: 'Am Markt', house_number: '3', postal_code: '04109', city: 'Leipzig' }],
  usage_unit_count: 12,
});

const END = ['01-31', '02-28', '03-31', '04-30', '05-31', '06-30', '07-31', '08-31', '09-30', '10-31', '11-30', '12-31'];

/** Month-end readings of 2025 starting at `firstMonth` (1-12), one value per month. */
export function monthly(values: number[], statuses: ReadingStatus[] = [], firstMonth = 1): MeterReading[] {
  return values.map((value, i) => {
    const status = statuses[i] ?? 'measured';
    return {
      at: `2025-${END[firstMonth - 1 + i]}`,
      value,
      status,
      substitution_method: status === 'calculated' ? 'degree_day_weighted' : null,
      is_synthetic: status === 'calculated',
    };
  });
}

export const IDS = { heatPoint: uuid(0x31), warmPoint: uuid(0x32), oldDevice: uuid(0x41), newDevice: uuid(0x42), plant: uuid(0x51) };

/** Flat 3.2: heat meter replaced at the end of June, warm water with an expired calibration in December. */
export function flat32() {
  const heat = aPointConsumption({
    measuring_point_id: IDS.heatPoint,
    metric: 'heat',
    unit: 'kWh',
    segments: [
      aSegment({
        device_id: IDS.oldDevice,
        serial: 'HZ-OLD-0815',
        installed_at: '2016-05-01',
        deinstalled_at: '2025-06-30',
        replacement_reason: 'DeviceReplacement',
        baseline_value: 1000,
        baseline_date: '2024-12-31',
        baseline_origin: 'month_end_before_range',
        readings: monthly([1400, 1750, 2000, 2150, 2200, 2210], ['measured', 'measured', 'calculated']),
        period_consumption: { end_value: 2210, billable_value: 1210, weighted_billable_value: 1210, status: 'measured' },
      }),
      aSegment({
        device_id: IDS.newDevice,
        serial: 'HZ-NEW-4711',
        installed_at: '2025-07-01',
        baseline_value: 0,
        baseline_date: '2025-07-01',
        baseline_origin: 'recorded',
        readings: monthly([5, 10, 20, 150, 420, 900], [], 7),
        period_consumption: { end_value: 900, billable_value: 900, weighted_billable_value: 900, status: 'measured' },
      }),
    ],
  });
  const warm = aPointConsumption({
    measuring_point_id: IDS.warmPoint,
    metric: 'water_warm',
    unit: 'm3',
    segments: [
      aSegment({
        serial: 'WW-2231',
        baseline_value: 50,
        readings: monthly(
          [51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62],
          [
            'measured',
            'measured',
            'measured',
            'measured',
            'measured',
            'measured',
            'measured',
            'measured',
            'measured',
            'measured',
            'missing',
            'calibration_expired',
          ],
        ),
        period_consumption: { end_value: 62, billable_value: 0, weighted_billable_value: 0, status: 'calibration_expired' },
      }),
    ],
  });
  return aUnitEntry('3.2', [heat, warm], { floor: '3', position: 'links' });
}

export function bundleFor(property: Property = aProperty(), range: DateRange = RANGE, extraUnits = 0): PropertyBundle {
  const units = [flat32(), aUnitEntry('EG links', [aPointConsumption({ metric: 'water_cold', unit: 'm3' })], { floor: 'EG', position: 'links' })];
  for (let i = 0; i < extraUnits; i++) units.push(aUnitEntry(`Whg ${String(i + 10).padStart(2, '0')} mit sehr langem Namen`, [aPointConsumption()]));
  const plant = [aPlantPoint({ point: { id: IDS.plant, localization: 'Heizungskeller Hauptzähler' }, consumption: { measuring_point_id: IDS.plant } })];
  const bill = billProperty({ property: { id: property.id, name: property.name }, range, units, plantPoints: plant });
  const points = new Map(plant.map((p) => [p.point.id!, p.point]));
  points.set(IDS.heatPoint, { id: IDS.heatPoint, property_id: property.id, localization: 'Bad, Heizkörper' });
  return { property, range, effective: range, units, plant, points, bill };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export interface FakeData extends BrowseData {
  calls: { listProperties: number; loadProperty: { id: string; range: DateRange }[] };
  emit(e: ApiEvent): void;
}

export interface FakeOptions {
  properties?: () => Promise<Property[]>;
  load?: (p: Property, range: DateRange, onProgress?: (p: LoadProgress) => void) => Promise<PropertyBundle>;
  exportSelection?: BrowseData['exportSelection'];
  extraUnits?: number;
}

export function fakeData(opts: FakeOptions = {}): FakeData {
  const listeners = new Set<(e: ApiEvent) => void>();
  const seen = new Map<string, Flag[]>();
  const calls: FakeData['calls'] = { listProperties: 0, loadProperty: [] };
  return {
    calls,
    listProperties() {
      calls.listProperties++;
      return opts.properties ? opts.properties() : Promise.resolve([aProperty(), MARKT]);
    },
    async loadProperty(p, range, onProgress) {
      calls.loadProperty.push({ id: p.id, range });
      const b = opts.load ? await opts.load(p, range, onProgress) : bundleFor(p, range, opts.extraUnits);
      seen.set(`${p.id}|${range.from}..${range.to}`, b.bill.flags);
      return b;
    },
    cachedFlags: (id, range) => seen.get(`${id}|${range.from}..${range.to}`) ?? null,
    flagText,
    onEvent(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    emit: (e) => listeners.forEach((l) => l(e)),
    ...(opts.exportSelection ? { exportSelection: opts.exportSelection } : {}),
  };
}

export const KEY = { enter: '\r', down: '\u001B[B', up: '\u001B[A', esc: '\u001B', backspace: '\u007F' };

/** Polls the last frame (bounded: 600 x 5 ms) until `pred` holds; returns the frame. */
export async function frameWhere(get: () => string | undefined, pred: (f: string) => boolean, what = 'frame'): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const f = get() ?? '';
    if (pred(f)) return f;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}; last frame:\n${get()}`);
}

export async function press(stdin: { write: (s: string) => void }, ...keys: string[]) {
  for (const k of keys) {
    stdin.write(k);
    await new Promise((r) => setTimeout(r, 15));
  }
}

export function mount(data: FakeData, size = { width: 100, height: 30 }, color = false) {
  const app = render(<App data={data} range={RANGE} color={color} width={size.width} height={size.height} />);
  const frame = (pred: (f: string) => boolean, what?: string) => frameWhere(app.lastFrame, pred, what);
  return { ...app, frame };
}

/** From the Properties list into flat 3.2 of Lindenstraße 12; returns the unit's frame. */
export async function openFlat32(app: ReturnType<typeof mount>): Promise<string> {
  await app.frame((s) => s.includes('Am Markt 3'), 'the Properties');
  await press(app.stdin, KEY.enter);
  await app.frame((s) => s.includes('Plant-room'), 'the Property');
  await press(app.stdin, KEY.enter);
  return app.frame((s) => s.includes('HZ-NEW-4711'), 'flat 3.2');
}
