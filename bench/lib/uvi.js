// Figure 6 (issue 24): `meterdata uvi --month 2025-11` against the sandbox in its own process,
// enforcing `limit`/min with injected latency. Requests against the bound 1.01 × (units + plant
// points + pages), wall time against the time its requests need at the limit, PDF pages per CPU
// second, peak RSS, and what the generic data set holds (plant meters by metric, unit meters).
import { readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateDataset } from '../../dist/sandbox/data/index.js';
import { runCli, signInFreshWindow, startSandboxProcess } from './harness.js';
import { minimumRequests } from './minimum.js';
import { maxInWindow } from './scenarios.js';

const MONTH = '2025-11';
const load = () => os.loadavg().map((x) => +x.toFixed(2));

/** Which metrics the auto-consent connection's Properties have, on plant points and on unit points. */
function dataSetHolds(units) {
  const ds = generateDataset({ seed: 'bench', units });
  const props = ds.properties(ds.tenants()[0].id);
  const plant = {};
  const unit = {};
  let withoutPlant = 0;
  for (const p of props) {
    const pts = ds.pointsOfProperty(p);
    const own = pts.filter((pt) => pt.allocations.length === 0);
    if (own.length === 0) withoutPlant++;
    for (const pt of own) plant[pt.metric] = (plant[pt.metric] ?? 0) + 1;
    for (const pt of pts) if (pt.allocations.length > 0) unit[pt.metric] = (unit[pt.metric] ?? 0) + 1;
  }
  return { properties: props.length, properties_without_plant_point: withoutPlant, plant_points_by_metric: plant, unit_points_by_metric: unit };
}

/** Every PDF under dir with its page count (pdfkit writes one `/Type /Page` object per page, no object streams). */
async function pdfPages(dir) {
  const out = { letters: 0, letter_pages: 0, combined: 0, combined_pages: 0, bytes: 0 };
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.pdf')) continue;
    const buf = await readFile(path.join(e.parentPath, e.name));
    const pages = buf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
    const kind = e.name.startsWith('letters-') ? 'combined' : 'letters';
    out[kind]++;
    out[`${kind === 'letters' ? 'letter' : 'combined'}_pages`] += pages;
    out.bytes += buf.length;
  }
  return out;
}

export async function uviRun({ units, limit, latencyMs, log }) {
  const holds = dataSetHolds(units);
  const sb = await startSandboxProcess({ units, rateLimitPerMinute: limit, latencyMs });
  try {
    const { env, home, before } = await signInFreshWindow(sb, log);
    const out = path.join(home, 'out');
    const loadStart = load();
    log(`  uvi --month ${MONTH} of the ${units}-unit data set at ${limit}/min, latency ${latencyMs.join('-')} ms …`);
    const r = await runCli(['uvi', '--month', MONTH, '--out', out, '--rate-limit', String(limit), '--quiet', '--json'], env, { measure: true });
    const loadEnd = load();
    if (r.code !== 0) throw new Error(`uvi failed (exit ${r.code}): ${r.stderr}`);
    const { log: after, arrivals } = await sb.stats();
    const pdf = await pdfPages(out);
    await rm(home, { recursive: true, force: true });
    const made = after.total - before.total;
    const min = minimumRequests({ units });
    // the client's pacer: a burst of L/20, then one start every 60000/L ms (src/api/pacer.ts)
    const burst = Math.max(1, Math.floor(limit / 20));
    const needS = (Math.max(0, made - burst) * 60) / limit;
    const cpuS = r.cpuMicros / 1e6;
    const pages = pdf.letter_pages + pdf.combined_pages;
    const byEndpoint = Object.fromEntries(Object.entries(after.by_endpoint).map(([k, v]) => [k, v - (before.by_endpoint[k] ?? 0)]));
    return {
      units_in_data_set: units,
      units_in_scope: min.units_in_scope,
      data_set_holds: holds,
      limit_per_min: limit,
      latency_ms: latencyMs,
      load_at_start: loadStart,
      load_at_end: loadEnd,
      requests_made: made,
      requests_base: min.total,
      requests_bound: 1.01 * min.total,
      base_breakdown: min,
      by_endpoint: byEndpoint,
      too_many_requests: after.too_many_requests - before.too_many_requests,
      max_in_any_60s: maxInWindow(arrivals, 60_000),
      wall_s: r.wallMs / 1000,
      requests_need_s: needS,
      wall_ratio: r.wallMs / 1000 / needS,
      last_request_s: (arrivals.at(-1) - r.spawnedAt) / 1000,
      first_request_s: (arrivals[0] - r.spawnedAt) / 1000,
      cpu_s: cpuS,
      threads: r.threads?.map((t) => ({
        ran: t.ran,
        cpu_s: t.cpuMicros / 1e6,
        started_s: (t.startedAt - r.spawnedAt) / 1000,
        ended_s: (t.endedAt - r.spawnedAt) / 1000,
      })),
      pdf,
      pages_per_cpu_s: pages / cpuS,
      peak_rss_mib: r.peakRssMiB,
      memory_at_peak_mib: r.memoryAtPeakMiB,
      summary: JSON.parse(r.stdout || 'null'),
    };
  } finally {
    await sb.stop();
  }
}
