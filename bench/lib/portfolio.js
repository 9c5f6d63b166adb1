// The portfolio figure: P = 1, 4, 16 connections of the same size (profiles signed in to
// the same landlord of one sandbox process, each connection with its own limit L and
// injected latency) exported by one `meterdata export --all-profiles`. Measured: wall time
// of P ÷ wall time of 1, each connection's use of its own limit (arrivals per bearer
// token), 429s, peak RSS against P, and the export process's CPU time per request
// against a raw-fetch baseline of the same requests.
import { rm } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runCli, signIn, startSandboxProcess } from './harness.js';
import { minimumRequests } from './minimum.js';
import { clientConcurrency, maxInWindow, rawFetch } from './scenarios.js';

async function once({ units, limit, latencyMs, p, log }) {
  const sb = await startSandboxProcess({ units, rateLimitPerMinute: limit, latencyMs, oauthRateLimitPerMinute: 0 });
  try {
    const home = await mkdtemp(path.join(os.tmpdir(), 'md-bench-portfolio-'));
    const profiles = Array.from({ length: p }, (_, i) => `landlord-${String(i + 1).padStart(2, '0')}`);
    let env;
    for (const profile of profiles) ({ env } = await signIn(sb, { home, profile }));
    // as in the rate figure: start in a fresh one-minute window of the sandbox's counters
    log(`  P=${p}: ${p} profiles signed in; waiting 61 s …`);
    await new Promise((r) => setTimeout(r, 61_000));
    const before = (await sb.stats(true)).log;
    log(`  P=${p}: export --all-profiles, ${units}-unit data set, ${limit}/min per connection, latency ${latencyMs.join('-')} ms …`);
    const r = await runCli(['export', '--year', '2025', '--all-profiles', '--out', path.join(home, 'out'), '--rate-limit', String(limit), '--quiet', '--json'], env, { measure: true });
    if (r.code !== 0) throw new Error(`portfolio export failed (exit ${r.code}): ${r.stderr}`);
    const { log: after, arrivals_by_token: byToken } = await sb.stats();
    const made = after.total - before.total;
    // each connection's achieved rate over its own traffic; tokens with a handful of requests are sign-in leftovers
    const perConnection = byToken
      .filter((t) => t.length > 10)
      .map((t) => ({ requests: t.length, use_of_limit: (t.length - 1) / ((t.at(-1) - t[0]) / 60_000) / limit, max_in_any_60s: maxInWindow(t, 60_000) }));
    let rawCpuPerRequestMicros = null;
    if (p === 1) {
      const token = (await runCli(['token', '--profile', profiles[0]], env)).stdout.trim();
      await new Promise((res) => setTimeout(res, 61_000)); // fresh window for the baseline too
      const raw = await rawFetch(sb.apiBase, token, await clientConcurrency(limit), limit);
      rawCpuPerRequestMicros = raw.cpuMicros / raw.requests;
    }
    await rm(home, { recursive: true, force: true });
    return {
      p,
      wall_s: r.wallMs / 1000,
      requests_made: made,
      too_many_requests: after.too_many_requests - before.too_many_requests,
      connections: perConnection,
      min_use_of_limit: Math.min(...perConnection.map((c) => c.use_of_limit)),
      peak_rss_mib: r.peakRssMiB,
      cpu_per_request_us: r.cpuMicros / made,
      raw_cpu_per_request_us: rawCpuPerRequestMicros,
    };
  } finally {
    await sb.stop();
  }
}

export async function portfolio({ units, limit, latencyMs, sizes, log }) {
  const rows = [];
  for (const p of sizes) rows.push(await once({ units, limit, latencyMs, p, log }));
  const one = rows.find((r) => r.p === 1);
  return {
    units_in_data_set: units,
    units_exported: minimumRequests({ units }).units_in_scope,
    limit_per_min: limit,
    latency_ms: latencyMs,
    rows: rows.map((r) => ({ ...r, wall_ratio: one ? r.wall_s / one.wall_s : null })),
    raw_cpu_per_request_us: one?.raw_cpu_per_request_us ?? null,
  };
}
