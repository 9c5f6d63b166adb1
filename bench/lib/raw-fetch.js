// The client-cost baseline: the same requests an export makes (/whoami, Property pages,
// unit and measuring-point pages per Property, one consumption per unit, one readings
// call per plant-room/main point), at the same concurrency, with plain undici, doing
// nothing with the answers beyond reading the ids it needs to build the next URLs.
// Run as its own process: node raw-fetch.js <apiBase> <from> <to> <concurrency> [perMinute],
// token in MD_TOKEN. perMinute > 0 spaces request starts evenly at 60000/perMinute ms (the
// export's own --rate-limit cap); 0 or absent: as fast as the server answers.
// Prints {requests, wallMs, cpuMicros, requestCpuMicros} as JSON: the CPU time of the whole
// process, and of the requests alone (from the first request on, without Node's start-up).
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

const [apiBase, from, to, concArg, rateArg] = process.argv.slice(2);
const spacingMs = Number(rateArg) > 0 ? 60_000 / Number(rateArg) : 0;
let nextStart = 0;
const concurrency = Number(concArg);
const base = new URL(apiBase);
const prefix = base.pathname.replace(/\/$/, '');
const pool = new Pool(base.origin, { connections: concurrency, pipelining: 1 });
const headers = { authorization: `Bearer ${process.env.MD_TOKEN}`, accept: 'application/json' };
let requests = 0;

async function get(pathAndQuery, parse) {
  requests++;
  if (spacingMs) {
    const now = performance.now();
    const at = Math.max(now, nextStart);
    nextStart = at + spacingMs;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }
  const { statusCode, body } = await pool.request({ method: 'GET', path: prefix + pathAndQuery, headers });
  if (statusCode !== 200) throw new Error(`HTTP ${statusCode} for ${pathAndQuery}: ${await body.text()}`);
  if (parse) return body.json();
  await body.dump({ limit: Infinity });
  return null;
}

async function* pages(pathname, query = {}) {
  let cursor = null;
  do {
    const q = new URLSearchParams({ ...query, limit: '200', ...(cursor ? { page_cursor: cursor } : {}) });
    const page = await get(`${pathname}?${q}`, true);
    yield page.data;
    cursor = page.next_cursor;
  } while (cursor);
}

/** A queue drained by `concurrency` workers; the walk feeds it while they run. */
const queue = [];
let walking = true;
const idle = [];
async function worker() {
  for (;;) {
    const job = queue.shift();
    if (job) await get(job, false);
    else if (!walking) return;
    else await new Promise((r) => idle.push(r));
  }
}
function push(job) {
  if (job) queue.push(job);
  idle.shift()?.();
}

const t0 = performance.now();
const cpu0 = process.cpuUsage();
await get('/whoami', false);
const range = new URLSearchParams({ from, to });
const workers = Array.from({ length: concurrency }, worker);
const walk = (async () => {
  for await (const props of pages('/properties')) {
    for (const p of props) {
      await Promise.all([
        (async () => {
          for await (const units of pages('/usage-units', { property_id: p.id })) for (const u of units) push(`/usage-units/${u.id}/consumption?${range}`);
        })(),
        (async () => {
          for await (const pts of pages(`/properties/${p.id}/measuring-points`))
            for (const pt of pts) if (pt.usage_unit_id === null) push(`/measuring-points/${pt.id}/readings?${range}`);
        })(),
      ]);
    }
  }
})();
await walk.finally(() => {
  walking = false;
  // wake every idle worker so it sees the walk is over
  while (idle.length) push(null);
});
await Promise.all(workers);
const wallMs = performance.now() - t0;
await pool.close();
// CPU time of this process (µs), for the portfolio figure's CPU per request.
const cpu = process.cpuUsage();
const since = process.cpuUsage(cpu0);
process.stdout.write(`${JSON.stringify({ requests, wallMs, cpuMicros: cpu.user + cpu.system, requestCpuMicros: since.user + since.system })}\n`);
