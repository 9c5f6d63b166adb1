// `npm run bench` (builds first): request optimality, use of the rate limit, client cost,
// the portfolio export (several connections in one run) and start-up of the built binary against the sandbox, each printed with the machine's
// core count, Node version and date; writes bench/results/<date>.json and <date>.md.
//
//   npm run bench                         quick profile (default, about 15 minutes)
//   BENCH_PROFILE=full npm run bench      3 runs of everything (about 50 minutes)
//   npm run bench -- --only startup,rate  a subset: startup, rate, cost, portfolio
//   MD_BENCH_BEFORE_BIN=… MD_BENCH_BEFORE_EXE=… npm run bench -- --only startup --startup-runs 41
//                                         start-up of an earlier build too, in the same rounds
//   npm run bench -- --runs 2             runs per figure (overrides the profile)
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { median, ROOT } from './lib/harness.js';
import { table } from './lib/report.js';
import { portfolio } from './lib/portfolio.js';
import { clientCost, paced, startup } from './lib/scenarios.js';
import { uviRun } from './lib/uvi.js';

const argv = process.argv.slice(2);
const flag = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const profile = flag('--profile') ?? process.env.BENCH_PROFILE ?? 'quick';
if (!['quick', 'full'].includes(profile)) throw new Error(`--profile must be quick or full, not ${profile}`);
const PARTS = ['startup', 'rate', 'cost', 'portfolio', 'uvi'];
const only = new Set((flag('--only') ?? PARTS.join(',')).split(','));
const runs = Number(flag('--runs') ?? (profile === 'full' ? 3 : 1));
const log = (s) => process.stderr.write(`${s}\n`);

const PROFILES = {
  // 300/min: the spec's limit on a short run (~2 minutes of traffic); 3,000/min: scaled up.
  // portfolio: P connections of the 400-unit data set (210 units each) at 600/min each, scaled up from 300.
  quick: {
    rate: [
      { units: 1000, limit: 300 },
      { units: 10_000, limit: 3000 },
    ],
    cost: [10_000, 50_000],
    startupRuns: 15,
    portfolio: { units: 400, limit: 600, sizes: [1, 4, 16] },
    // uvi: the 2,000-unit data set at 600/min, the 10,000-unit one at 3,000/min (about 2 minutes each)
    uvi: [
      { units: 2000, limit: 600 },
      { units: 10_000, limit: 3000 },
    ],
  },
  full: {
    rate: [
      { units: 1000, limit: 300 },
      { units: 10_000, limit: 3000 },
      { units: 1000, limit: 3000 },
    ],
    cost: [10_000, 50_000],
    startupRuns: 31,
    portfolio: { units: 400, limit: 600, sizes: [1, 4, 16] },
    uvi: [
      { units: 2000, limit: 600 },
      { units: 10_000, limit: 3000 },
    ],
  },
};
const plan = PROFILES[profile];
const LATENCY = [80, 150];

const started = new Date();
const results = {
  date: started.toISOString(),
  profile,
  runs,
  command: ['node', 'bench/run.js', ...argv].join(' '),
  machine: {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadavg_at_start: os.loadavg().map((x) => +x.toFixed(2)),
  },
  startup: null,
  rate: [],
  cost: [],
  portfolio: null,
  uvi: [],
};
log(
  `meterdata bench, ${profile} profile, ${runs} run(s) per figure; ${results.machine.cores} cores, Node ${process.version}, load ${results.machine.loadavg_at_start.join(' ')}`,
);

if (only.has('startup')) {
  log('start-up …');
  const before = { bin: process.env.MD_BENCH_BEFORE_BIN || undefined, exe: process.env.MD_BENCH_BEFORE_EXE || undefined };
  results.startup = startup({ runs: Number(flag('--startup-runs') ?? plan.startupRuns), before });
}
if (only.has('rate')) {
  for (const s of plan.rate) {
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push(await paced({ ...s, latencyMs: LATENCY, log }));
    const m = (k) => median(samples.map((x) => x[k]));
    results.rate.push({
      ...samples[0],
      runs: samples,
      optimality: m('optimality'),
      achieved_per_min: m('achieved_per_min'),
      use_of_limit: m('use_of_limit'),
      too_many_requests: Math.max(...samples.map((x) => x.too_many_requests)),
      max_in_any_60s: Math.max(...samples.map((x) => x.max_in_any_60s)),
      requests_made: m('requests_made'),
      export_wall_s: m('export_wall_s'),
    });
  }
}
if (only.has('cost')) for (const units of plan.cost) results.cost.push(await clientCost({ units, runs, log }));
if (only.has('portfolio'))
  results.portfolio = await portfolio({
    ...plan.portfolio,
    ...(flag('--sizes') ? { sizes: flag('--sizes').split(',').map(Number) } : {}),
    latencyMs: LATENCY,
    log,
  });

if (only.has('uvi')) {
  // --uvi-sizes 2000:600,10000:3000 (units:limit) for a smaller or larger run
  const sizes = flag('--uvi-sizes')
    ?.split(',')
    .map((x) => ({ units: Number(x.split(':')[0]), limit: Number(x.split(':')[1]) }));
  for (const s of sizes ?? plan.uvi) results.uvi.push(await uviRun({ ...s, latencyMs: LATENCY, log }));
}

results.finished = new Date().toISOString();
// A complete run is <date>.json; a subset (--only) gets its parts in the name, so it never
// replaces a complete run's results.
const subset = PARTS.some((p) => !only.has(p)) ? `-${[...only].sort().join('-')}` : '';
// --tag NAME: a side measurement (e.g. the build before a change) gets its own files too.
const day = `${started.toISOString().slice(0, 10)}${subset}${flag('--tag') ? `-${flag('--tag').replace(/[^\w.-]/g, '')}` : ''}`;
const dir = path.join(ROOT, 'bench', 'results');
await mkdir(dir, { recursive: true });
const md = table(results);
await writeFile(path.join(dir, `${day}.json`), `${JSON.stringify(results, null, 2)}\n`);
await writeFile(path.join(dir, `${day}.md`), md);
process.stdout.write(md);
log(`wrote bench/results/${day}.json and bench/results/${day}.md`);
