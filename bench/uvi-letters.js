// CPU cost of the monthly letters (§ 6a HeizkostenV): builds the model of `--letters`
// units (heating from allocators with an estimated and a missing month, warm water by
// § 9 Abs. 2, cold water: three services, two pages each) and renders them with the built
// code, once as one file per letter, once as one combined PDF, and once as the combined PDF
// made from the own files' drawings (what `uvi` does: LetterPdf.addDrawn), and prints PDF pages per
// second of CPU (user + system of this process, which includes zlib and the garbage
// collector), bytes per letter and peak RSS. No network, no sandbox: only the rendering the
// `uvi` command does while its walk waits on the rate limit.
// `npm run build && node bench/uvi-letters.js [--letters 200] [--runs 3]`
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './lib/harness.js';

const argv = process.argv.slice(2);
const flag = (n, d) => (argv.includes(n) ? Number(argv[argv.indexOf(n) + 1]) : d);
const letters = flag('--letters', 200);
const runs = flag('--runs', 3);
const dist = (m) => import(path.join(ROOT, 'dist', m));
const [{ dec }, { letterFonts, letterModel, LetterPdf, writeLetter }, { thirteenMonths }] = await Promise.all(
  ['billing/decimal.js', 'uvi/letter/index.js', 'uvi/months.js'].map(dist),
);

const MONTH = '2025-11';
const months = thirteenMonths(MONTH);
const HEAT_SHARE = [120, 160, 170, 150, 130, 80, 40, 13, 13, 13, 30, 80, 120];

/** A unit's 13 months, different per unit (a deterministic spread, not random). */
function unitUvi(i) {
  const f = 0.6 + ((i * 37) % 80) / 100;
  const svc = (service, method, nativeUnit, value, converted = true) => ({
    service,
    method,
    native_unit: nativeUnit,
    months: months.map((month, k) => {
      const v = value(k);
      return { month, kwh: v.kwh, native: v.native, converted, estimated: k === 11, reasons: v.native === null ? ['no_reading'] : [], benchmark_kwh: v.bench };
    }),
  });
  const heating = svc('HEATING', 'allocators', 'unit', (k) =>
    k === 4
      ? { kwh: null, native: null, bench: dec(HEAT_SHARE[k] * 8.5) }
      : { kwh: dec(HEAT_SHARE[k] * 10 * f), native: dec(HEAT_SHARE[k] * f), bench: dec(HEAT_SHARE[k] * 8.5) },
  );
  const ww = svc('HOT_WATER', 'formula_9_2', 'm3', (k) => ({
    kwh: dec(2 + (k % 3) / 10)
      .times(f)
      .times(125),
    native: dec(2 + (k % 3) / 10).times(f),
    bench: dec(145),
  }));
  const cold = svc('COLD_WATER', 'volume_only', 'm3', (k) => ({ kwh: null, native: dec(4 + (k % 4) / 10).times(f), bench: null }), false);
  return { usage_unit_id: `unit-${i}`, services: [heating, ww, cold], findings: [] };
}

function input(i) {
  return {
    property: { id: 'p', name: 'Wohnanlage Große Straße 5' },
    address: {
      street: 'Große Straße',
      house_number: String(5 + (i % 3)),
      house_number_addition: null,
      postal_code: '80331',
      city: 'München',
      country_code: 'DE',
    },
    unit: {
      id: `unit-${i}`,
      name: `WE ${String(i + 1).padStart(3, '0')}`,
      floor: `${i % 6}. OG`,
      position: i % 2 ? 'links' : 'rechts',
      unit_type: 'residential',
      area_heated_m2: 50 + (i % 40),
      area_ww_m2: 50 + (i % 40),
    },
    erpRef: `ME-${1000 + i}`,
    month: MONTH,
    uvi: unitUvi(i),
    benchmarkSource: 'DIW Wärmemonitor 2023; Heizspiegel für Deutschland (co2online)',
    wwTemperature: 60,
    lang: 'de',
  };
}

const pagesOf = (bytes) => (bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
const cpu = (u) => (u.user + u.system) / 1e6;

const fonts = await letterFonts();
const options = { fonts, createdAt: new Date('2025-12-05T06:00:00Z'), title: 'Verbrauchsinformation', lang: 'de' };
const MODES = ['one file per letter', 'one combined PDF', 'combined from the own drawings'];
const results = [];
for (let r = 0; r < runs; r++) {
  /** What each own file drew (writeLetter hands it back), for the third mode. */
  const drawings = [];
  for (const mode of MODES) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-bench-uvi-'));
    const start = process.cpuUsage();
    const wall = performance.now();
    if (mode !== 'one file per letter') {
      const pdf = LetterPdf.open(path.join(dir, 'all.pdf'), options);
      for (let i = 0; i < letters; i++) {
        if (mode === 'one combined PDF') await pdf.add(letterModel(input(i)));
        else await pdf.addDrawn(letterModel(input(i)), drawings[i]);
      }
      await pdf.close();
    } else {
      for (let i = 0; i < letters; i++) drawings.push(await writeLetter(path.join(dir, `${i}.pdf`), letterModel(input(i)), options));
    }
    const used = cpu(process.cpuUsage(start));
    const seconds = (performance.now() - wall) / 1000;
    let pages = 0;
    let bytes = 0;
    for (const f of await readdir(dir)) {
      const b = await readFile(path.join(dir, f));
      pages += pagesOf(b);
      bytes += (await stat(path.join(dir, f))).size;
    }
    await rm(dir, { recursive: true, force: true });
    results.push({ mode, run: r + 1, letters, pages, cpu_s: used, wall_s: seconds, pages_per_cpu_s: pages / used, kb_per_letter: bytes / letters / 1024 });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const lines = [
  `Monthly letters: ${letters} letters (3 services, ${results[0].pages / letters} pages each), ${runs} runs, Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
  '',
  '| mode | pages | CPU s (median) | wall s (median) | pages per CPU second (median) | kB per letter |',
  '|---|---|---|---|---|---|',
];
for (const mode of MODES) {
  const rs = results.filter((x) => x.mode === mode);
  lines.push(
    `| ${mode} | ${rs[0].pages} | ${median(rs.map((x) => x.cpu_s)).toFixed(2)} | ${median(rs.map((x) => x.wall_s)).toFixed(2)} | ${median(rs.map((x) => x.pages_per_cpu_s)).toFixed(0)} | ${median(rs.map((x) => x.kb_per_letter)).toFixed(1)} |`,
  );
}
lines.push('', `Peak RSS of the process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
process.stdout.write(`${lines.join('\n')}\n`);
