// `meterdata uvi --month 2025-11`, the built binary against the sandbox's Wohnbau Rheinblick
// eG: the files it writes into <out>/2025-11/, every kWh figure of chosen units in uvi.csv
// against a computation written here from the raw API answers (not through src/uvi), a
// letter read back with pdftotext in German, and bad input refused in one line with exit 2.
// Needs `npm run build`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient } from '../../src/api/contracts.js';
import type { DeviceSegment, MeasuringPoint, MeasuringPointConsumption, UnitConsumption, UsageUnit } from '../../src/api/types.js';
import { staticCredentials } from '../../src/core/credentials.js';
import { collect } from '../helpers/api-fixtures.js';
import { assertBuilt, runBin, type Run } from '../helpers/bin.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn, storeFile, type SignedIn } from '../helpers/signed-in.js';
import { requireTool } from '../helpers/tools.js';

const MONTHS = ['2024-11', '2024-12', '2025-01', '2025-02', '2025-03', '2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09', '2025-10', '2025-11'];
const RANGE = { from: '2024-11-01', to: '2025-11-30' };
/** § 9 Abs. 2 HeizkostenV at the default 60 °C: 2.5 kWh/(m³·K) × (60 − 10) K. */
const KWH_PER_M3 = 2.5 * 50;

interface Unit {
  unit: UsageUnit;
  consumption: UnitConsumption;
}
interface Prop {
  units: Unit[];
  plant: { point: MeasuringPoint; consumption: MeasuringPointConsumption }[];
}

let si: SignedIn;
let client: ApiClient;
let run: Run;
let out: string;
const props = new Map<string, Prop>();

beforeAll(async () => {
  assertBuilt();
  si = await signedIn({ autoConsentTenant: 'Wohnbau Rheinblick eG', homePrefix: 'md-e2e-uvi-' });
  // A second profile of its own for the raw answers, so the binary's sign-in is never touched by the test.
  await si.signIn('raw');
  const token = JSON.parse(readFileSync(storeFile(si.env, 'raw'), 'utf8')).access_token as string;
  client = createApiClient({ baseUrl: si.sandbox.apiBase, credentials: staticCredentials(token), rateLimitPerMinute: 60_000, concurrency: 4, retryBaseMs: 10 });
  for (const p of await collect(client.listProperties())) {
    const units = await collect(client.listUsageUnits({ propertyId: p.id }));
    const points = await collect(client.listPropertyMeasuringPoints(p.id));
    const plant = [];
    for (const point of points.filter((x) => x.usage_unit_id === null)) plant.push({ point, consumption: await client.pointReadings(point.id!, RANGE) });
    props.set(p.name, { units: await Promise.all(units.map(async (unit) => ({ unit, consumption: await client.unitConsumption(unit.id, RANGE) }))), plant });
  }
  out = await mkdtemp(path.join(os.tmpdir(), 'md-e2e-uvi-out-'));
  run = await runBin(['uvi', '--month', '2025-11', '--out', out, '--lang', 'de'], si.env, { timeoutMs: 240_000 });
}, 300_000);

afterAll(async () => {
  await client?.close();
  await si?.close();
});

// ---- the independent computation, from the raw answers ----

const prevEnd = (m: string) => {
  const [y, mo] = m.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, mo - 1, 0)).toISOString().slice(0, 10);
};
const end = (m: string) => {
  const [y, mo] = m.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, mo, 0)).toISOString().slice(0, 10);
};
interface Value {
  v: number;
  estimated: boolean;
}
type Maybe = Value | null | 'none';

/** A reading usable as consumption (measured or calculated), or null; the month end before the range is the segment's baseline. */
function reading(s: DeviceSegment, at: string): Value | null {
  const r = s.readings.find((x) => x.at === at);
  if (!r && s.baseline_date === at && s.baseline_origin === 'month_end_before_range') return { v: s.baseline_value, estimated: false };
  if (!r || (r.status !== 'measured' && r.status !== 'calculated')) return null;
  return { v: r.value, estimated: r.status === 'calculated' };
}

/** One point's month: each device from its reading (or start value) to its reading (or removal value), times factor and share; 'none': no device in the month. */
function pointMonth(c: MeasuringPointConsumption, m: string, share = 1): Maybe {
  const from = prevEnd(m);
  const to = end(m);
  const inMonth = c.segments.filter((s) => (s.installed_at ?? '') <= to && (s.deinstalled_at === null || s.deinstalled_at > from));
  if (inMonth.length === 0) return 'none';
  let v = 0;
  let estimated = false;
  for (const s of inMonth) {
    const start = (s.installed_at ?? '') > from ? { v: s.baseline_value, estimated: false } : reading(s, from);
    const stop = s.deinstalled_at !== null && s.deinstalled_at <= to ? { v: s.period_consumption.end_value, estimated: false } : reading(s, to);
    if (!start || !stop) return null;
    v += (stop.v - start.v) * s.factor;
    estimated ||= start.estimated || stop.estimated;
  }
  return { v: v * share, estimated };
}

/** A sum of point months: missing when one is; 'none' counts 0 unless every one is 'none'. */
function total(parts: Maybe[]): Maybe {
  if (parts.some((p) => p === null)) return null;
  const values = parts.filter((p): p is Value => p !== 'none' && p !== null);
  if (values.length === 0) return 'none';
  return { v: values.reduce((a, b) => a + b.v, 0), estimated: values.some((x) => x.estimated) };
}

const unitMetric = (u: Unit, metric: string, m: string) =>
  total(u.consumption.measuring_points.filter((p) => p.metric === metric).map((p) => pointMonth(p, m, p.unit_share ?? 1)));
const plantHeat = (p: Prop, warm: boolean, m: string) =>
  total(p.plant.filter((x) => x.point.metric === 'heat' && /Warmwasser/.test(x.point.localization ?? '') === warm).map((x) => pointMonth(x.consumption, m)));
const num = (x: Maybe) => (x === null || x === 'none' ? null : x.v);

/** The kWh the letter should give for a unit, service and month; null: no kWh. */
function expected(name: string, unit: string, service: 'HEATING' | 'HOT_WATER', m: string): Value | null {
  const p = props.get(name)!;
  const u = p.units.find((x) => x.unit.name === unit)!;
  const vol = (x: Unit) => unitMetric(x, 'water_warm', m);
  if (service === 'HOT_WATER') {
    const own = vol(u);
    if (own === null || own === 'none') return null;
    const meter = plantHeat(p, true, m);
    if (meter === 'none') return { v: KWH_PER_M3 * own.v, estimated: own.estimated };
    const all = total(p.units.map(vol));
    if (meter === null || num(all) === null) return null;
    return { v: (meter.v * own.v) / num(all)!, estimated: own.estimated || meter.estimated };
  }
  const heat = unitMetric(u, 'heat', m);
  if (heat !== 'none') return heat;
  // Allocators: the plant heat less § 9 Abs. 2 of all flats' warm water, by allocator units.
  const plant = plantHeat(p, false, m);
  const hca = unitMetric(u, 'hca', m);
  const allHca = total(p.units.map((x) => unitMetric(x, 'hca', m)));
  const allVol = total(p.units.map(vol));
  if (plant === null || plant === 'none' || hca === null || hca === 'none' || num(allHca) === null || num(allVol) === null) return null;
  const heating = plant.v - KWH_PER_M3 * num(allVol)!;
  return { v: (heating * hca.v) / num(allHca)!, estimated: false };
}

// ---- reading the files ----

/** uvi.csv (generic layout) as records by header. */
function csv(text: string): Record<string, string>[] {
  const lines = text
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  const sep = lines[0]!.includes(';') ? ';' : ',';
  const head = lines[0]!.split(sep);
  return lines.slice(1).map((l) => Object.fromEntries(l.split(sep).map((c, i) => [head[i]!, c.replace(/^"|"$/g, '')])));
}

const CHOSEN: [string, string, string][] = [
  ['Rheinuferstraße 14', 'WE 01', 'heat meter'],
  ['Rheinuferstraße 12', 'WE 01', 'allocators converted'],
  ['Rheinuferstraße 14', 'WE 03', 'meter replaced 2025-11-14'],
  ['Rheinuferstraße 14', 'WE 04', 'calculated November'],
  ['Rheinuferstraße 14', 'WE 05', 'missing reading 2024-11-30'],
  ['Rheinuferstraße 12', 'WE 06', 'no floor area'],
  ['Am Leinpfad 3', 'WE 04', 'new from 2025-03-01'],
];

describe('meterdata uvi --month 2025-11 against Wohnbau Rheinblick eG', () => {
  const dir = () => path.join(out, '2025-11');
  const rows = () => csv(readFileSync(path.join(dir(), 'uvi.csv'), 'utf8'));

  it('writes uvi.csv, uvi.json, review.csv, a letter per unit and one per Property into <out>/2025-11/, listed in its manifest', async () => {
    expect(run.code, run.stderr).toBe(0);
    const names = (await readdir(dir())).sort();
    const manifest = JSON.parse(await readFile(path.join(dir(), 'meterdata-manifest.json'), 'utf8')) as { files: { name: string }[] };
    expect(names).toEqual([...manifest.files.map((f) => f.name), 'meterdata-manifest.json'].sort());
    const unitIds = [...props.values()].flatMap((p) => p.units.map((u) => u.unit.id));
    expect(names.filter((n) => n.startsWith('letter-'))).toHaveLength(unitIds.length);
    expect(names.filter((n) => n.startsWith('letters-'))).toHaveLength(props.size);
    expect(names).toEqual(expect.arrayContaining(['uvi.csv', 'uvi.json', 'review.csv']));
    const json = JSON.parse(await readFile(path.join(dir(), 'uvi.json'), 'utf8')) as unknown[];
    expect(json).toHaveLength(rows().length);
    expect(run.stderr).toMatch(/16 Schreiben für 16 Nutzeinheiten in 3 Liegenschaften/);
  });

  it.each(CHOSEN)('%s %s (%s): every kWh figure of heating and warm water equals the raw answers’ computation', (name, unit, _case) => {
    const u = props.get(name)!.units.find((x) => x.unit.name === unit)!;
    for (const service of ['HEATING', 'HOT_WATER'] as const) {
      const mine = rows().filter((r) => r.usage_unit_id === u.unit.id && r.service === service);
      expect(mine.map((r) => r.month)).toEqual(MONTHS);
      for (const r of mine) {
        const want = expected(name, unit, service, r.month!);
        if (want === null) expect([r.month, service, r.amount]).toEqual([r.month, service, '']);
        else {
          expect(Number(r.amount), `${r.month} ${service}`).toBeCloseTo(want.v, 2);
          expect(r.estimated, `${r.month} ${service}`).toBe(String(want.estimated));
        }
      }
    }
  });

  it('the cases show as the issue asks: the calculated month estimated, the missing months and the new flat’s first months without amount, no benchmark without floor area', () => {
    const of = (name: string, unit: string, service: string) => {
      const id = props.get(name)!.units.find((x) => x.unit.name === unit)!.unit.id;
      return rows().filter((r) => r.usage_unit_id === id && r.service === service);
    };
    expect(of('Rheinuferstraße 14', 'WE 04', 'HEATING').at(-1)!.estimated).toBe('true');
    expect(
      of('Rheinuferstraße 14', 'WE 05', 'HEATING')
        .slice(0, 2)
        .map((r) => [r.amount, r.errors]),
    ).toEqual([
      ['', 'missing'],
      ['', 'missing'],
    ]);
    expect(
      of('Am Leinpfad 3', 'WE 04', 'HOT_WATER')
        .slice(0, 4)
        .map((r) => [r.amount, r.errors]),
    ).toEqual(Array(4).fill(['', 'no_device']));
    expect(of('Am Leinpfad 3', 'WE 01', 'HEATING').at(-1)).toMatchObject({ amount: '', errors: 'no_plant_heat_meter' });
    expect(of('Rheinuferstraße 12', 'WE 06', 'HEATING').at(-1)!.benchmark_amount).toBe('');
    expect(Number(of('Rheinuferstraße 12', 'WE 01', 'HEATING').at(-1)!.benchmark_amount)).toBeGreaterThan(0);
  });

  it('review.csv names the units whose letter is incomplete; each Property’s progress line counts its lines there', () => {
    const review = csv(readFileSync(path.join(dir(), 'review.csv'), 'utf8'));
    for (const name of props.keys()) {
      const n = review.filter((r) => r.property_name === name).length;
      expect(run.stderr).toMatch(new RegExp(`„${name}“: .*, ${n} Hinweis(e)?\n`));
    }
    const we06 = props.get('Rheinuferstraße 12')!.units.find((x) => x.unit.name === 'WE 06')!.unit.id;
    expect(review.filter((r) => r.usage_unit_id === we06).map((r) => r.code)).toEqual(['NO_FLOOR_AREA', 'NO_FLOOR_AREA']);
    expect(review.filter((r) => r.code === 'NO_PLANT_HEAT_METER')).toHaveLength(4);
  });

  it('pdftotext of a letter shows November’s figures in German format', (ctx) => {
    requireTool(ctx, 'pdftotext', 'reads the letter back');
    const letter = readdirSync(dir()).filter((n) => n.startsWith('letter-Rheinuferstraße_12-WE_01-'));
    expect(letter).toHaveLength(1);
    const text = execFileSync('pdftotext', ['-layout', path.join(dir(), letter[0]!), '-'], { encoding: 'utf8' });
    const german = (v: number) => v.toLocaleString('de-DE', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    expect(text).toContain('November 2025');
    expect(text).toContain(`${german(expected('Rheinuferstraße 12', 'WE 01', 'HEATING', '2025-11')!.v)} kWh`);
    expect(text).toContain(`${german(expected('Rheinuferstraße 12', 'WE 01', 'HEATING', '2025-10')!.v)} kWh`);
    expect(text).toContain(`${german(expected('Rheinuferstraße 12', 'WE 01', 'HOT_WATER', '2025-11')!.v)} kWh`);
    expect(text).toContain('Rheinuferstraße 12');
  });
});

describe('meterdata uvi refuses bad input before any request: one line, its fix, exit 2', () => {
  it.each([
    [
      'a month not yet ended',
      ['--month', '2099-01'],
      /^meterdata: --month 2099-01 has not ended yet; the last completed month is \d{4}-\d{2}\.\n {2}Give a month up to/,
    ],
    ['a month 13', ['--month', '2025-13'], /^meterdata: --month 2025-13: a year has no month 13\.\n {2}Give the month as/],
    [
      'a --template it does not know',
      ['--month', '2025-11', '--template', 'fr'],
      /^meterdata: --template fr: the monthly information knows the layouts generic and de\n {2}Use --template de/,
    ],
  ])('%s', async (_what, args, message) => {
    const r = await runBin(['uvi', ...args, '--out', path.join(out, 'refused')], si.env, { timeoutMs: 60_000 });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
  });

  it.each([
    ['a wrong column', 'unit_type;service;kwh;source\nresidential;HEATING;100;Heizspiegel\n', /^meterdata: --benchmark \S+ line 1: unknown column "kwh"\.\n/],
    [
      'a negative value',
      'unit_type;service;kwh_per_m2_year;source\nresidential;HEATING;-100;Heizspiegel\n',
      /^meterdata: --benchmark \S+ line 2: -100 kWh per m² and year; the average user consumes more than nothing\.\n/,
    ],
    [
      'an absurd value',
      'unit_type;service;kwh_per_m2_year;source\nresidential;HEATING;118000;Heizspiegel\n',
      /^meterdata: --benchmark \S+ line 2: 118000 kWh per m²/,
    ],
  ])('a benchmark file with %s', async (_what, text, message) => {
    const file = path.join(out, `bench-${_what.replace(/\W/g, '')}.csv`);
    await writeFile(file, text);
    const r = await runBin(['uvi', '--month', '2025-11', '--benchmark', file, '--out', path.join(out, 'refused')], si.env, { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
  });

  it('a METERDATA_EXPORT_HEAP_MB below 128 MB (the old-space cap of its worker thread), before any request', async () => {
    const before = si.sandbox.log.total;
    const r = await runBin(
      ['uvi', '--month', '2025-11', '--out', path.join(out, 'refused')],
      { ...si.env, METERDATA_EXPORT_HEAP_MB: '64' },
      { timeoutMs: 60_000 },
    );
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(
      'meterdata: METERDATA_EXPORT_HEAP_MB=64 is not a whole number of megabytes between 128 and 65536.\n  Set it to e.g. 4096, or unset it for the default 1024.\n',
    );
    expect(si.sandbox.log.total).toBe(before);
    expect(existsSync(path.join(out, 'refused'))).toBe(false);
  });

  it('a FIFO as --benchmark, refused at once without reading it', async () => {
    const fifo = path.join(out, 'bench.fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await runBin(['uvi', '--month', '2025-11', '--benchmark', fifo, '--out', path.join(out, 'refused')], si.env, { timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^meterdata: --benchmark \S+ is not a file \(a pipe or a device cannot be read\)\.\n {2}Give the path/);
    expect(existsSync(path.join(out, 'refused'))).toBe(false);
  });
});

describe('meterdata uvi in one thread and in its worker thread', () => {
  it('writes the same bytes in-process (as the tests run it) as the binary, whose walk and letters run in a worker with heap limits', async () => {
    const epoch = { ...si.env, SOURCE_DATE_EPOCH: '1764547200' };
    const [bin, here] = [path.join(out, 'bin'), path.join(out, 'in-process')];
    const a = await runBin(['uvi', '--month', '2025-11', '--out', bin, '--quiet'], epoch, { timeoutMs: 120_000 });
    const b = await runCli(['uvi', '--month', '2025-11', '--out', here, '--quiet'], { env: epoch });
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    const names = (await readdir(path.join(bin, '2025-11'))).sort();
    expect((await readdir(path.join(here, '2025-11'))).sort()).toEqual(names);
    for (const n of names) expect((await readFile(path.join(here, '2025-11', n))).equals(await readFile(path.join(bin, '2025-11', n))), n).toBe(true);
  }, 300_000);
});

describe('meterdata uvi interrupted and run again', () => {
  it('Ctrl-C after the first Property: exit 130 and no file in <out>/<month>/; the re-run resumes and writes the bytes of an uninterrupted run', async () => {
    const epoch = { ...si.env, SOURCE_DATE_EPOCH: '1764547200' };
    const stopped = path.join(out, 'stopped');
    let interrupted = false;
    // --rate-limit 30 keeps the walk of the other two Properties busy for half a minute after the first is written
    const first = await runBin(['uvi', '--month', '2025-11', '--out', stopped, '--rate-limit', '30'], epoch, {
      timeoutMs: 120_000,
      onStderr: (text, child) => {
        // once: a second Ctrl-C ends the process at once, without its clean-up
        if (!interrupted && /property 1\/3/.test(text)) interrupted = child.kill('SIGINT');
      },
    });
    expect([first.code, first.signal], first.stderr).toEqual([130, null]);
    // the monthly information's words, not the export's (src/export/run-words.ts)
    expect(first.stderr).toMatch(/Interrupted\. The monthly information run stopped after 1 of 3 Properties \(not finished: /);
    expect(first.stderr).toContain('Run the same `meterdata uvi` command again to continue');
    expect(first.stderr).not.toMatch(/export/i);
    const left = existsSync(path.join(stopped, '2025-11')) ? await readdir(path.join(stopped, '2025-11')) : [];
    expect(left).toEqual([]);
    const again = await runBin(['uvi', '--month', '2025-11', '--out', stopped, '--json', '--quiet'], epoch, { timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ resumed: true, letters: 16 });
    const whole = path.join(out, 'whole');
    const fresh = await runBin(['uvi', '--month', '2025-11', '--out', whole, '--quiet'], epoch, { timeoutMs: 120_000 });
    expect(fresh.code, fresh.stderr).toBe(0);
    const names = (await readdir(path.join(whole, '2025-11'))).sort();
    expect((await readdir(path.join(stopped, '2025-11'))).sort()).toEqual(names);
    for (const n of names.filter((x) => x !== 'meterdata-manifest.json')) {
      expect((await readFile(path.join(stopped, '2025-11', n))).equals(await readFile(path.join(whole, '2025-11', n))), n).toBe(true);
    }
  }, 300_000);
});
