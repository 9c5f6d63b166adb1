// export's plausibility review in-process against the sandbox: flag checks before any
// request, the single-period review every export runs (and --no-plausibility), a comparison
// folder written with the German template,
// and a resumed run that fetches no comparison answer twice.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/plausibility/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;
const CONSUMPTION = 'GET /usage-units/{id}/consumption';
const count = () => sandbox.log.byEndpoint.get(CONSUMPTION) ?? 0;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({ units: 40, admin: true, homePrefix: 'md-export-plausibility-', env: { SOURCE_DATE_EPOCH: '1767225600' } }));
});
afterAll(async () => sandbox?.close());

describe('review flags are checked before any request', () => {
  const cases: [string[], RegExp][] = [
    [['--compare', '2024', '--compare-from', '2024-01-01', '--compare-to', '2024-12-31'], /--compare cannot be combined/],
    [['--compare-from', '2024-01-01'], /--compare-to is missing/],
    [['--compare-to', '2024-12-31'], /--compare-from is missing/],
    [['--compare-from', '2024-05-01', '--compare-to', '2024-04-01'], /--compare-to 2024-04-01 lies before --compare-from/],
    [['--compare-from', '2024-02-30', '--compare-to', '2024-04-01'], /--compare-from: "2024-02-30" is not a date/],
    [['--threshold', '30'], /--threshold needs a comparison period/],
    [['--plausibility', '--threshold', '30'], /--threshold needs a comparison period/],
    [['--no-plausibility', '--compare', '2024'], /--no-plausibility leaves out the review that --compare adds to/],
    [['--compare', '2024', '--threshold', 'abc'], /--threshold: "abc" is not a percentage/],
    [['--compare', '2024', '--threshold', '0'], /--threshold: "0"/],
    [['--compare', ''], /--compare: the value is empty/],
    [['--compare', '2025'], /--compare 2025 is the export's own period/],
    [['--compare-from', '2025-01-01', '--compare-to', '2025-12-31'], /--compare-from 2025-01-01 --compare-to 2025-12-31 is the export's own period/],
  ];
  for (const [argv, msg] of cases) {
    it(`rejects ${argv.join(' ')}`, async () => {
      const before = sandbox.log.total;
      const r = await runCli(['export', '--year', '2025', ...argv], { env, cwd: home });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
      expect(sandbox.log.total).toBe(before);
    });
  }
});

describe('an earlier export in the default folder', () => {
  it('--compare 2024 added to it is refused naming the comparison, that the folder is the default one and --out', async () => {
    const cwd = await mkdtemp(path.join(home, 'default-'));
    const first = await runCli(['export', '--year', '2025', '--format', 'csv', '--quiet'], { env, cwd });
    expect(first.code, first.stderr).toBe(0);
    const before = sandbox.log.total;
    const consumptionBefore = count();
    const r = await runCli(['export', '--year', '2025', '--format', 'csv', '--compare', '2024', '--lang', 'de'], { env, cwd });
    expect(r.code).toBe(2);
    const dir = path.join(cwd, 'meterdata-2025-01-01_2025-12-31');
    expect(r.stderr).toBe(
      `meterdata: Der Standardordner ${dir} enthält bereits einen Export mit anderen Einstellungen: Plausibilitätsprüfung ohne Vergleich → Vergleich mit 2024.\n` +
        '  Ohne --out schreibt meterdata in diesen Standardordner: Wählen Sie mit --out ORDNER einen anderen, oder löschen Sie diesen Ordner zuerst.\n',
    );
    expect(sandbox.log.total).toBe(before);
    // that folder as the comparison of the same period: refused, nothing fetched but who is signed in
    const own = await runCli(['export', '--year', '2025', '--format', 'csv', '--compare', dir, '--out', 'other'], { env, cwd });
    expect(own.code).toBe(2);
    expect(own.stderr).toContain(`--compare ${dir}: that export covers 2025-01-01 to 2025-12-31, the period of this export itself`);
    expect(sandbox.log.byEndpoint.get(CONSUMPTION) ?? 0).toBe(consumptionBefore);
  }, 60_000);
});

const rows = (text: string, sep = ',') => {
  const [head, ...rest] = parseCsv(text, sep);
  return rest.filter((r) => r.length > 1).map((r) => Object.fromEntries(r.map((v, i) => [head![i]!, v])));
};

describe('export with the plausibility review', () => {
  it('a comparison period the service refuses (after the last completed month) stops with exit 2 naming --compare, nothing written', async () => {
    const out = path.join(home, 'future');
    const r = await runCli(['export', '--year', '2025', '--compare', '2027', '--format', 'csv', '--out', out], { env, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^comparing with 2027-01-01 to 2027-12-31: /);
    expect(r.stderr).toMatch(/meterdata: Comparison period 2027-01-01 to 2027-12-31: The service refused the requested range/);
    expect(r.stderr).toMatch(/Check --compare \(or --compare-from\/--compare-to\)/);
    expect((await readdir(out).catch(() => [])).filter((n) => !n.startsWith('.'))).toEqual([]);
  }, 60_000);

  it('by default: plausibility.csv without comparison columns, no extra request; no CALIBRATION_ENDED for a meter installed 2019 or later', async () => {
    const out = path.join(home, 'plain');
    const before = count();
    const r = await runCli(['export', '--year', '2025', '--out', out, '--format', 'csv', '--json'], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    expect(count() - before).toBe(JSON.parse(r.stdout).counts.units);
    expect((await readdir(out)).sort()).toEqual([
      'billing.csv',
      'meterdata-manifest.json',
      'plant-points.csv',
      'plausibility.csv',
      'readings.csv',
      'review.csv',
      'segments.csv',
    ]);
    const p = rows(await readFile(path.join(out, 'plausibility.csv'), 'utf8'));
    expect(p.length).toBeGreaterThan(0);
    expect(p.every((x) => x.comparison_value === '' && x.comparison_status === '' && x.change_percent === '')).toBe(true);
    // Heat and warm water have 6 years since 03.11.2021: installed 2019, calibrated through 2025.
    const installed = new Map(rows(await readFile(path.join(out, 'segments.csv'), 'utf8')).map((x) => [x.device_id, x.installed_at]));
    const review = rows(await readFile(path.join(out, 'review.csv'), 'utf8'));
    const ended = review.filter((x) => x.code === 'CALIBRATION_ENDED');
    expect(ended.every((x) => installed.get(x.device_id!)! < '2019')).toBe(true);
    expect(review.filter((x) => x.code === 'CALIBRATION_ENDS_SOON').some((x) => installed.get(x.device_id!)!.startsWith('2019'))).toBe(true);
    expect(JSON.parse(r.stdout).flag_codes.CALIBRATION_ENDED ?? 0).toBe(ended.length);
    // No cost group of this sandbox has estimated units above 25 % of its area (e2e export-plausibility: cold water never gets one).
    expect(review.filter((x) => (x.code ?? '').startsWith('ESTIMATED_AREA'))).toEqual([]);
  }, 60_000);

  it('--no-plausibility leaves the review out: no plausibility.csv, no review finding', async () => {
    const out = path.join(home, 'no-review');
    const r = await runCli(['export', '--year', '2025', '--no-plausibility', '--out', out, '--format', 'csv', '--json'], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['billing.csv', 'meterdata-manifest.json', 'plant-points.csv', 'readings.csv', 'review.csv', 'segments.csv']);
    const codes = Object.keys(JSON.parse(r.stdout).flag_codes);
    expect(codes.filter((c) => /^(ZERO_CONSUMPTION|PER_M2_OUTLIER|CALIBRATION_(ENDED|ENDS_SOON|DATE_UNKNOWN)|ESTIMATED_)/.test(c))).toEqual([]);
  }, 60_000);

  it('--compare DIR reads a folder written with the German template (semicolons, decimal commas) to the same findings as --compare 2024', async () => {
    const de = path.join(home, 'de2024');
    expect((await runCli(['export', '--year', '2024', '--template', 'de', '--format', 'csv', '--out', de], { env, cwd: home })).code).toBe(0);
    const a = path.join(home, 'cmp-fetched');
    const b = path.join(home, 'cmp-folder');
    const ra = await runCli(['export', '--year', '2025', '--compare', '2024', '--format', 'csv', '--out', a], { env, cwd: home });
    expect(ra.code, ra.stderr).toBe(0);
    const rb = await runCli(['export', '--year', '2025', '--compare', de, '--format', 'csv', '--out', b], { env, cwd: home });
    expect(rb.code, rb.stderr).toBe(0);
    const review = await readFile(path.join(a, 'review.csv'), 'utf8');
    expect(await readFile(path.join(b, 'review.csv'), 'utf8')).toBe(review);
    expect(await readFile(path.join(b, 'plausibility.csv'), 'utf8')).toBe(await readFile(path.join(a, 'plausibility.csv'), 'utf8'));
    expect(rows(review).some((x) => x.code === 'CONSUMPTION_CHANGE' || x.code === 'COMPARISON_NOT_BILLED')).toBe(true);
    // an export of heat alone against that folder of every metric: compared on heat only, as --compare 2024 (before: every
    // other metric of every unit GONE_SINCE_COMPARISON)
    const heat = async (compare: string, out: string) => {
      const r = await runCli(['export', '--year', '2025', '--metric', 'heat', '--compare', compare, '--format', 'csv', '--out', out], { env, cwd: home });
      expect(r.code, r.stderr).toBe(0);
      return readFile(path.join(out, 'review.csv'), 'utf8');
    };
    const heatReview = await heat(de, path.join(home, 'cmp-heat-folder'));
    expect(heatReview).toBe(await heat('2024', path.join(home, 'cmp-heat-fetched')));
    expect(rows(heatReview).filter((x) => x.code === 'GONE_SINCE_COMPARISON')).toEqual([]);
  }, 180_000);

  it('--compare DIR: a folder naming every Property and metric is a comparison; one narrowed to some Properties is refused at the first other; one written without plant-points.csv compares the units alone', async () => {
    const tenant = sandbox.dataset.tenants()[0]!.id;
    const properties = sandbox.dataset.propertiesOf(tenant);
    const exportTo = async (out: string, ...more: string[]) => {
      const r = await runCli(['export', '--format', 'csv', '--out', path.join(home, out), ...more], { env, cwd: home });
      return { ...r, review: r.code === 0 ? await readFile(path.join(home, out, 'review.csv'), 'utf8') : '' };
    };
    const fetched = await exportTo('cover-fetched', '--year', '2025', '--compare', '2024');
    expect(fetched.code, fetched.stderr).toBe(0);
    // every Property and every metric named: the same export as none named (before: refused as "fewer metrics")
    const named = ['--property', properties.map((p) => p.id).join(','), '--metric', 'heat,hca,water_cold,water_warm,electricity,gas,water_outdoor'];
    const named2024 = await exportTo('cover-named-2024', '--year', '2024', ...named);
    expect(named2024.code, named2024.stderr).toBe(0);
    const againstNamed = await exportTo('cover-named', '--year', '2025', '--compare', path.join(home, 'cover-named-2024'));
    expect(againstNamed.code, againstNamed.stderr).toBe(0);
    expect(againstNamed.review).toBe(fetched.review);
    // narrowed to the first Property: refused once the walk reaches the second, naming it
    expect((await exportTo('cover-first-2024', '--year', '2024', '--property', properties[0]!.id)).code).toBe(0);
    const againstFirst = await exportTo('cover-first', '--year', '2025', '--compare', path.join(home, 'cover-first-2024'));
    expect(againstFirst.code).toBe(2);
    expect(againstFirst.stderr).toContain(`leaves out "${properties[1]!.name}"`);
    // a template without the plant-room and main meters' table: those meters are not compared (before: each NEW_SINCE_COMPARISON)
    await writeFile(path.join(home, 'no-plant.json'), JSON.stringify({ extends: 'generic', files: { 'plant-points': false } }));
    expect((await exportTo('cover-noplant-2024', '--year', '2024', '--template', './no-plant.json')).code).toBe(0);
    const againstNoPlant = await exportTo('cover-noplant', '--year', '2025', '--compare', path.join(home, 'cover-noplant-2024'));
    expect(againstNoPlant.code, againstNoPlant.stderr).toBe(0);
    const unitsOnly = (csv: string) => rows(csv).filter((x) => x.usage_unit_id !== '' || !/COMPARISON|CONSUMPTION_CHANGE/.test(x.code!));
    expect(rows(againstNoPlant.review).filter((x) => x.code === 'NEW_SINCE_COMPARISON' && x.usage_unit_id === '')).toEqual([]);
    expect(unitsOnly(againstNoPlant.review)).toEqual(unitsOnly(fetched.review));
  }, 300_000);

  it('the current year, answered up to the last completed month: --compare YYYY takes the same months; a folder of the whole year is refused, naming them', async () => {
    // the sandbox's clock is 2026-11-22: 2026 is answered for January to October
    const run = async (out: string, ...more: string[]) => {
      const r = await runCli(['export', '--format', 'csv', '--out', path.join(home, out), ...more], { env, cwd: home });
      return { ...r, plausibility: r.code === 0 ? await readFile(path.join(home, out, 'plausibility.csv'), 'utf8') : '' };
    };
    const byYear = await run('capped-year', '--year', '2026', '--compare', '2025');
    expect(byYear.code, byYear.stderr).toBe(0);
    const byMonths = await run('capped-months', '--from', '2026-01-01', '--to', '2026-10-31', '--compare-from', '2025-01-01', '--compare-to', '2025-10-31');
    expect(byMonths.code, byMonths.stderr).toBe(0);
    expect(byYear.plausibility).toBe(byMonths.plausibility);
    expect((await run('capped-2025', '--year', '2025')).code).toBe(0);
    const byFolder = await run('capped-folder', '--year', '2026', '--compare', path.join(home, 'capped-2025'));
    expect(byFolder.code).toBe(2);
    expect(byFolder.stderr).toContain(
      'The service answered for 2026-01-01 to 2026-10-31 (10 months, up to its last completed month), the comparison covers 2025-01-01 to 2025-12-31 (12 months)',
    );
    expect(byFolder.stderr).toContain('--compare-from 2025-01-01 --compare-to 2025-10-31');
  }, 300_000);

  it('a German template names the new columns in German; a user template can rename them', async () => {
    const out = path.join(home, 'de-review');
    // --template de lays out the files; --lang de writes the messages in German (independent of each other).
    const r = await runCli(
      ['export', '--year', '2025', '--compare', '2024', '--template', 'de', '--lang', 'de', '--format', 'csv', '--out', out, '--metric', 'heat'],
      { env, cwd: home },
    );
    expect(r.code, r.stderr).toBe(0);
    const head = (await readFile(path.join(out, 'plausibility.csv'), 'utf8')).split(/\r?\n/)[0]!;
    expect(head).toContain('Vergleichswert;Status im Vergleichszeitraum;Veränderung in %');
    const review = rows(await readFile(path.join(out, 'review.csv'), 'utf8'), ';');
    expect(review.find((x) => x['Hinweis-Code'] === 'CALIBRATION_ENDS_SOON' && /14\.05\.2019/.test(x.Befund!))!.Befund).toMatch(
      /^Eichfrist endet laut Einbaudatum zum Ende dieses Zeitraums oder im Folgejahr \(Gerät: WMZ-\d+, eingebaut am: 14\.05\.2019, Eichfrist in Jahren: 6, Eichfrist endet \(geschätzt\): 31\.12\.2025\)/,
    );
    expect(review.filter((x) => x['Hinweis-Code'] === 'CALIBRATION_ENDED' && /eingebaut am: \d\d\.\d\d\.(2019|202\d)/.test(x.Befund!))).toEqual([]);
    // the findings column says in words what the codes beside it mean, one title per code
    const plaus = rows(await readFile(path.join(out, 'plausibility.csv'), 'utf8'), ';');
    const found = plaus.filter((x) => x['Plausibilitätshinweise'] !== '');
    expect(found.length).toBeGreaterThan(0);
    for (const x of found) {
      const codes = x['Plausibilitätshinweise']!.split('|');
      expect(x.Befunde!.split('; ')).toHaveLength(codes.length);
      expect(x.Befunde).not.toMatch(/[A-Z]{3,}_[A-Z_]+/);
    }
    expect(found.find((x) => x['Plausibilitätshinweise'] === 'CALIBRATION_ENDED')?.Befunde).toMatch(/^Eichfrist/);
    await writeFile(
      path.join(home, 'mine.json'),
      JSON.stringify({
        extends: 'generic',
        files: { plausibility: { file: 'pruefung.csv', columns: ['usage_unit_name', { key: 'change_percent', header: 'Änderung %' }, 'checks'] } },
      }),
    );
    const mine = path.join(home, 'mine-review');
    const m = await runCli(
      ['export', '--year', '2025', '--compare', '2024', '--template', './mine.json', '--format', 'csv', '--out', mine, '--metric', 'heat'],
      { env, cwd: home },
    );
    expect(m.code, m.stderr).toBe(0);
    expect((await readFile(path.join(mine, 'pruefung.csv'), 'utf8')).split('\r\n')[0]).toBe('usage_unit_name,Änderung %,checks');
  }, 60_000);

  it('is resumable: a run that failed on the second Property continues without fetching either period of the first again', async () => {
    const ds = sandbox.dataset;
    const tenant = ds.tenants()[0]!.id;
    const [first, second] = ds.properties(tenant);
    const lastUnit = ds.unitId(second!.unitEnd - 1);
    const original = ds.unit.bind(ds);
    ds.unit = (id: string) => (id === lastUnit ? undefined : original(id));
    const out = path.join(home, 'resumed');
    const argv = ['export', '--year', '2025', '--compare', '2024', '--format', 'csv', '--out', out];
    try {
      const failed = await runCli(argv, { env, cwd: home });
      expect(failed.code).toBe(4);
    } finally {
      ds.unit = original;
    }
    const before = count();
    const r = await runCli([...argv, '--json'], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).resumed).toBe(true);
    expect(count() - before).toBe(2 * (second!.unitEnd - second!.unitStart));
    expect(first!.unitEnd - first!.unitStart).toBeGreaterThan(0);
    const uninterrupted = path.join(home, 'cmp-fetched');
    for (const name of ['review.csv', 'plausibility.csv', 'billing.csv']) {
      expect(await readFile(path.join(out, name), 'utf8'), name).toBe(await readFile(path.join(uninterrupted, name), 'utf8'));
    }
  }, 90_000);
});
