// The four measurements of `npm run bench`. Each returns plain numbers for the results
// JSON; run.js takes medians over repeated runs and prints the table.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { BIN, ROOT, median, runCli, signIn, signInFreshWindow, startSandboxProcess } from './harness.js';
import { minimumRequests } from './minimum.js';

// What `npm run build:exe` writes for this machine (docs/install.md).
const EXE = path.join(ROOT, 'build', 'meterdata-linux-x64');

const YEAR = ['--year', '2025'];

/** Largest number of arrivals inside any window of `ms` (sliding). */
export function maxInWindow(times, ms) {
  let best = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j] - times[i] >= ms) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

/**
 * One export against a sandbox process enforcing `limit`/min with injected latency:
 * request optimality (requests made / contract minimum) and use of the rate limit.
 */
export async function paced({ units, limit, latencyMs, log }) {
  const sb = await startSandboxProcess({ units, rateLimitPerMinute: limit, latencyMs });
  try {
    const { env, home, before } = await signInFreshWindow(sb, log);
    log(`  export of the ${units}-unit data set at ${limit}/min, latency ${latencyMs.join('-')} ms …`);
    const r = await runCli(['export', ...YEAR, '--out', path.join(home, 'out'), '--rate-limit', String(limit), '--quiet', '--json'], env, { measure: true });
    if (r.code !== 0) throw new Error(`export failed (exit ${r.code}): ${r.stderr}`);
    const { log: after, arrivals } = await sb.stats();
    await rm(home, { recursive: true, force: true });
    const made = after.total - before.total;
    const min = minimumRequests({ units });
    const minimum = min.total + 1; // + the /whoami the spec requires after a token issue
    const spanMin = (arrivals.at(-1) - arrivals[0]) / 60_000;
    const byEndpoint = Object.fromEntries(Object.entries(after.by_endpoint).map(([k, v]) => [k, v - (before.by_endpoint[k] ?? 0)]));
    return {
      units_in_data_set: units,
      units_exported: min.units_in_scope,
      limit_per_min: limit,
      latency_ms: latencyMs,
      requests_made: made,
      requests_minimum: minimum,
      minimum_breakdown: min,
      by_endpoint: byEndpoint,
      optimality: made / minimum,
      traffic_minutes: spanMin,
      achieved_per_min: (arrivals.length - 1) / spanMin,
      use_of_limit: (arrivals.length - 1) / spanMin / limit,
      max_in_any_60s: maxInWindow(arrivals, 60_000),
      too_many_requests: after.too_many_requests - before.too_many_requests,
      export_wall_s: r.wallMs / 1000,
    };
  } finally {
    await sb.stop();
  }
}

export function rawFetch(apiBase, token, concurrency, perMinute) {
  return new Promise((resolve, reject) => {
    const c = spawn(
      process.execPath,
      [path.join(ROOT, 'bench', 'lib', 'raw-fetch.js'), apiBase, '2025-01-01', '2025-12-31', String(concurrency), String(perMinute)],
      {
        env: { PATH: process.env.PATH, MD_TOKEN: token },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => (out += d));
    c.stderr.on('data', (d) => (err += d));
    c.on('error', reject);
    c.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`raw fetch failed (${code}): ${err}`))));
  });
}

/** The client's concurrency at --rate-limit L (src/api/client.ts defaultConcurrency). */
export async function clientConcurrency(perMinute) {
  const { defaultConcurrency } = await import('../../dist/api/client.js');
  return defaultConcurrency(perMinute);
}

/**
 * Client cost: the sandbox (own process) with limits and latency off; export to CSV+XLSX at
 * the export's highest --rate-limit; raw-fetch baselines of the same requests at the same
 * concurrency, paced at the same cap and unpaced. Peak RSS of the export process.
 */
export async function clientCost({ units, runs, log }) {
  const cap = 10_000; // the highest --rate-limit the export accepts
  const concurrency = await clientConcurrency(cap);
  const sb = await startSandboxProcess({ units, rateLimitPerMinute: 0 });
  const samples = [];
  try {
    const { env, home } = await signIn(sb);
    const token = (await runCli(['token'], env)).stdout.trim();
    for (let i = 0; i < runs; i++) {
      log(`  client cost, ${units}-unit data set, run ${i + 1}/${runs} …`);
      const out = path.join(home, `out-${i}`);
      const before = (await sb.stats()).log.total;
      const r = await runCli(['export', ...YEAR, '--out', out, '--rate-limit', String(cap), '--quiet'], env, { measure: true });
      if (r.code !== 0) throw new Error(`export failed (exit ${r.code}): ${r.stderr}`);
      const made = (await sb.stats()).log.total - before;
      await rm(out, { recursive: true, force: true });
      const pacedRaw = await rawFetch(sb.apiBase, token, concurrency, cap);
      const unpaced = await rawFetch(sb.apiBase, token, concurrency, 0);
      samples.push({
        export_s: r.wallMs / 1000,
        peak_rss_mib: r.peakRssMiB,
        memory_at_peak_mib: r.memoryAtPeakMiB,
        requests: made,
        raw_paced_s: pacedRaw.wallMs / 1000,
        raw_unpaced_s: unpaced.wallMs / 1000,
        raw_requests: pacedRaw.requests,
      });
    }
    await rm(home, { recursive: true, force: true });
  } finally {
    await sb.stop();
  }
  const m = (k) => median(samples.map((s) => s[k]));
  return {
    units_in_data_set: units,
    units_exported: minimumRequests({ units }).units_in_scope,
    rate_limit_flag: cap,
    concurrency,
    runs: samples,
    export_s: m('export_s'),
    raw_paced_s: m('raw_paced_s'),
    raw_unpaced_s: m('raw_unpaced_s'),
    ratio_vs_paced: median(samples.map((s) => s.export_s / s.raw_paced_s)),
    ratio_vs_unpaced: median(samples.map((s) => s.export_s / s.raw_unpaced_s)),
    peak_rss_mib: m('peak_rss_mib'),
  };
}

/**
 * Start-up: `meterdata --version` / `--help` against `node -e 0`, interleaved, medians; and
 * the single executable's `--version` when `npm run build:exe` has made it. Wall time, and on
 * Linux CPU time (user + sys) too: on a busy machine a start waits for a core, which its CPU
 * time does not count. `before` (MD_BENCH_BEFORE_BIN, MD_BENCH_BEFORE_EXE): an earlier build's
 * launcher and executable, measured in the same rounds, so a change is judged before and after
 * under the same load.
 */
export function startup({ runs, before = {} }) {
  const time = ([cmd, ...args]) => {
    const c0 = childrenCpuMs();
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const wall = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return { wall, cpu: c0 === null ? NaN : childrenCpuMs() - c0 };
  };
  const node = process.execPath;
  const exe = existsSync(EXE) ? EXE : null;
  const starts = {
    node: [node, '-e', '0'],
    version: [node, BIN, '--version'],
    help: [node, BIN, '--help'],
    ...(exe ? { exe: [exe, '--version'] } : {}),
    ...(before.bin ? { before_version: [node, before.bin, '--version'], before_help: [node, before.bin, '--help'] } : {}),
    ...(before.exe ? { before_exe: [before.exe, '--version'] } : {}),
  };
  const t = Object.fromEntries(Object.keys(starts).map((k) => [k, []]));
  for (let i = 0; i < runs + 1; i++) {
    for (const [k, argv] of Object.entries(starts)) {
      const s = time(argv);
      if (i > 0) t[k].push(s); // the first round warms the page cache (and meterdata's compile cache)
    }
  }
  const wall = (k) => (t[k] ? median(t[k].map((x) => x.wall)) : null);
  // The kernel counts children's CPU in clock ticks (10 ms): the mean of many runs, not the median, is exact.
  const cpu = (k) => (t[k] && !Number.isNaN(t[k][0].cpu) ? t[k].reduce((a, x) => a + x.cpu, 0) / t[k].length : null);
  const figures = (name, k) => ({
    [`${name}_ms`]: wall(k),
    [`${name}_ratio`]: wall(k) === null ? null : wall(k) / wall('node'),
    [`${name}_cpu_ms`]: cpu(k),
    [`${name}_cpu_ratio`]: cpu(k) === null ? null : cpu(k) / cpu('node'),
  });
  return {
    runs,
    lang: process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG || null,
    node_ms: wall('node'),
    node_cpu_ms: cpu('node'),
    ...figures('version', 'version'),
    ...figures('help', 'help'),
    ...figures('exe_version', 'exe'),
    ...figures('before_version', 'before_version'),
    ...figures('before_help', 'before_help'),
    ...figures('before_exe_version', 'before_exe'),
    before,
    loadavg_at_end: os.loadavg().map((x) => +x.toFixed(2)),
  };
}

/** CPU time (user + sys, ms) of this process's ended children, from /proc (Linux); null elsewhere. */
function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // after the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14; USER_HZ is 100 on Linux
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}
