// The portfolio figure: P = 1, 4, 16 connections of the same size (profiles signed in to
// the same landlord of one sandbox process, each connection with its own limit L and
// injected latency) exported by one `meterdata export --all-profiles`. Measured: wall time
// of P ÷ wall time of 1, each connection's use of its own limit (arrivals per bearer
// token), 429s, peak RSS against P, the export process's CPU time split into phases (the
// main thread: sign-in, walk, billing, CSV and spools; the workbook workers) and per
// request against a raw-fetch baseline of the same requests, and the lower bound the
// machine's cores put on the wall-time ratio (see `bound` below).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runCli, signIn, startSandboxProcess } from './harness.js';
import { minimumRequests } from './minimum.js';
import { clientConcurrency, maxInWindow, rawFetch } from './scenarios.js';

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/**
 * Use of the limit over a short run: the client's pacer (src/api/pacer.ts) starts with a
 * burst allowance of `burst` requests and then spaces requests 60000/L ms apart, so n
 * requests need at least (n − burst)·60000/L ms: that time ÷ the actual span is 1 for a
 * connection kept busy at its limit, and below 1 for one that waited on anything else. The
 * plain rate (n − 1) ÷ span ÷ L overstates a run of ~20 s by the burst (≈ 1.14 at L = 600).
 */
function useOfLimit(times, limit, burst) {
  const span = times.at(-1) - times[0];
  return { use_of_limit: ((times.length - burst) * 60_000) / limit / span, plain_rate_over_limit: ((times.length - 1) * 60_000) / limit / span };
}

async function once({ units, limit, latencyMs, p, log }) {
  const sb = await startSandboxProcess({ units, rateLimitPerMinute: limit, latencyMs, oauthRateLimitPerMinute: 0 });
  try {
    const home = await mkdtemp(path.join(os.tmpdir(), 'md-bench-portfolio-'));
    const profiles = Array.from({ length: p }, (_, i) => `landlord-${String(i + 1).padStart(2, '0')}`);
    let env;
    for (const profile of profiles) ({ env } = await signIn(sb, { home, profile }));
    // A connection's whole export (plus the sign-in's /whoami) fits in one window of the
    // sandbox's counter, so no window can overflow and no wait for a fresh one is needed.
    const perConnection = minimumRequests({ units }).total + 2;
    if (perConnection > limit) {
      log(`  P=${p}: ${p} profiles signed in; waiting 61 s for a fresh window …`);
      await new Promise((r) => setTimeout(r, 61_000));
    }
    const before = (await sb.stats(true)).log;
    const load = os.loadavg().map((x) => +x.toFixed(2));
    log(`  P=${p}: export --all-profiles, ${units}-unit data set, ${limit}/min per connection, latency ${latencyMs.join('-')} ms (load ${load.join(' ')}) …`);
    const r = await runCli(
      ['export', '--year', '2025', '--all-profiles', '--out', path.join(home, 'out'), '--rate-limit', String(limit), '--quiet', '--json'],
      env,
      { measure: true },
    );
    if (r.code !== 0) throw new Error(`portfolio export failed (exit ${r.code}): ${r.stderr}`);
    // MD_BENCH_STDOUT=<file>: the export's output kept (e.g. with MD_BENCH_NODE_ARGS=--trace-gc)
    if (process.env.MD_BENCH_STDOUT) await writeFile(`${process.env.MD_BENCH_STDOUT}.p${p}`, r.stdout);
    const { log: after, arrivals_by_token: byToken } = await sb.stats();
    const made = after.total - before.total;
    const { RateBudget } = await import('../../dist/api/pacer.js');
    const burst = new RateBudget({ perMinute: limit }).burst;
    // each connection's rate over its own traffic; tokens with a handful of requests are sign-in leftovers
    const traffic = byToken.filter((t) => t.length > 10);
    const connections = traffic.map((t) => ({
      requests: t.length,
      ...useOfLimit(t, limit, burst),
      traffic_s: (t.at(-1) - t[0]) / 1000,
      max_in_any_60s: maxInWindow(t, 60_000),
    }));
    const lastAnswer = Math.max(...traffic.map((t) => t.at(-1)));
    const main = r.threads.find((x) => x.ran === null);
    // the walks: the portfolio's worker thread (the main thread in builds that ran them there)
    const walker = r.threads.find((x) => x.ran === 'portfolioInWorker') ?? main;
    // a worker per workbook (builds before issue 15), or workers that write one after another
    const workbooks = r.threads.filter((x) => x.ran === 'writeXlsx' || x.ran === 'serveWorkbooks');
    const byThread = {};
    for (const x of r.threads) {
      const k = x.ran ?? 'main';
      byThread[k] = { threads: (byThread[k]?.threads ?? 0) + 1, cpu_s: (byThread[k]?.cpu_s ?? 0) + x.cpuMicros / 1e6 };
    }
    let raw = null;
    if (p === 1) {
      const token = (await runCli(['token', '--profile', profiles[0]], env)).stdout.trim();
      raw = await rawFetch(sb.apiBase, token, await clientConcurrency(limit), limit);
    }
    await rm(home, { recursive: true, force: true });
    return {
      p,
      load_at_start: load,
      load_at_end: os.loadavg().map((x) => +x.toFixed(2)),
      wall_s: r.wallMs / 1000,
      // from the start of the process to the last request's arrival; the rest is the tail (workbooks, commit)
      walk_end_s: (lastAnswer - r.spawnedAt) / 1000,
      tail_s: (r.spawnedAt + r.wallMs - lastAnswer) / 1000,
      requests_made: made,
      too_many_requests: after.too_many_requests - before.too_many_requests,
      burst,
      connections,
      min_use_of_limit: Math.min(...connections.map((c) => c.use_of_limit)),
      max_plain_rate_over_limit: Math.max(...connections.map((c) => c.plain_rate_over_limit)),
      peak_rss_mib: r.peakRssMiB,
      memory_at_peak_mib: r.memoryAtPeakMiB,
      cpu_s: r.cpuMicros / 1e6,
      cpu_walk_s: walker.cpuMicros / 1e6,
      cpu_main_s: main.cpuMicros / 1e6,
      cpu_workbooks_s: sum(workbooks.map((w) => w.cpuMicros)) / 1e6,
      // Node's own threads: V8's garbage-collector helpers, and libuv's pool (file writes, zlib, hashing)
      cpu_other_s: (r.cpuMicros - sum(r.threads.map((x) => x.cpuMicros))) / 1e6,
      cpu_by_thread: byThread,
      // Node's own threads by name, CPU seconds (Linux): `V8 DefaultWorke` the collector's helpers, `libuv-worker` the pool
      cpu_native_threads_s: r.nativeThreads,
      workbooks: p,
      workbook_threads: workbooks.length,
      workbooks_at_once: maxOverlap(workbooks),
      cpu_per_request_us: r.cpuMicros / made,
      raw,
    };
  } finally {
    await sb.stop();
  }
}

/** The most intervals [startedAt, endedAt] open at the same moment. */
function maxOverlap(spans) {
  const ev = spans
    .flatMap((s) => [
      [s.startedAt, 1],
      [s.endedAt, -1],
    ])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let best = 0;
  for (const [, d] of ev) best = Math.max(best, (open += d));
  return best;
}

/**
 * What the cores allow, from the P = 1 run and this run's own CPU: every walk ends at about
 * the time P = 1's does (each connection keeps to its own limit), and a profile's workbook
 * starts only once its walk has ended, so P workbooks of w CPU seconds each, c at a time,
 * add at least P·w/c after it: wall(P) ≥ walk_end(1) + P·w/c. And no run is shorter than
 * its CPU time spread over c cores. Not counted: the walks' thread's own work when the P
 * profiles' largest Properties end together (billing, CSV, spools, journal of P Properties
 * on one thread: bench/README.md, "The P = 16 tail, continued"), which is what decides
 * P = 16 on 2 cores. The larger of the two, ÷ wall(1), is a lower bound on the ratio on c
 * idle cores, not what the design reaches; `p_within_target` is the largest P that bound
 * allows at 1.10 with this run's CPU per workbook.
 */
function bound(row, one, cores) {
  const w = row.workbooks ? row.cpu_workbooks_s / row.workbooks : 0;
  const byWorkbooks = one.walk_end_s + (row.p * w) / cores;
  const byCpu = row.cpu_s / cores;
  return {
    cores,
    workbook_cpu_s: w,
    lowest_ratio: Math.max(byWorkbooks, byCpu) / one.wall_s,
    // at this run's CPU per workbook (workers that stay cost less per workbook the more they write)
    p_within_target: w > 0 ? Math.floor((cores * (1.1 * one.wall_s - one.walk_end_s)) / w) : null,
  };
}

export async function portfolio({ units, limit, latencyMs, sizes, log }) {
  const rows = [];
  for (const p of sizes) rows.push(await once({ units, limit, latencyMs, p, log }));
  const one = rows.find((r) => r.p === 1);
  const cores = os.availableParallelism();
  const most = rows.at(-1);
  const raw = one?.raw ?? null;
  return {
    units_in_data_set: units,
    units_exported: minimumRequests({ units }).units_in_scope,
    limit_per_min: limit,
    latency_ms: latencyMs,
    cores,
    rows: rows.map((r) => ({ ...r, wall_ratio: one ? r.wall_s / one.wall_s : null, bound: one ? bound(r, one, cores) : null })),
    raw_cpu_per_request_us: raw ? raw.cpuMicros / raw.requests : null,
    // without Node's start-up, which a short baseline is mostly made of
    raw_request_cpu_per_request_us: raw?.requestCpuMicros != null ? raw.requestCpuMicros / raw.requests : null,
    // what one more connection costs the thread of the walks per request: start-up and sign-in cancel out
    marginal_walk_cpu_per_request_us: one && most !== one ? ((most.cpu_walk_s - one.cpu_walk_s) * 1e6) / (most.requests_made - one.requests_made) : null,
    marginal_cpu_per_request_us: one && most !== one ? ((most.cpu_s - one.cpu_s) * 1e6) / (most.requests_made - one.requests_made) : null,
  };
}
