// What one consumption answer costs the walks' thread in the two steps issue 25's levers
// touched, without the network and the rest of the export, so that two builds compare on a
// busy machine: the client's checks (JSON.parse, the depth check, the schema check) and
// formatDecimal of every number in it (billing's rows format the server's numbers).
//   node bench/answer-cost.js --dist /path/a/dist --dist /path/b/dist [--rounds 7] [--units 400]
// Stages the first tenant's consumption answers of the sandbox's data set once, then runs each
// build in a child process of its own, the builds taking turns, and prints the median thread
// CPU time per answer of each step (the first round of each child is a warm-up and not counted).
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { threadCpuUsage } from 'node:process';
import { pathToFileURL } from 'node:url';
import { median, runCli, signIn, startSandboxProcess } from './lib/harness.js';

const argv = process.argv.slice(2);
const all = (n) => argv.flatMap((a, i) => (a === n ? [argv[i + 1]] : []));
const flag = (n, d) => (argv.includes(n) ? Number(argv[argv.indexOf(n) + 1]) : d);
const cpuNow = () => {
  const u = threadCpuUsage();
  return u.user + u.system;
};

if (argv[0] === '--measure') {
  // child: node answer-cost.js --measure <dist> <answers.json> <rounds>
  const [, dist, file, rounds] = argv;
  const load = (m) => import(pathToFileURL(path.join(dist, m)).href);
  const [{ check, tooDeep }, { unitConsumption }, { formatDecimal }] = await Promise.all(['api/schema.js', 'api/schemas.js', 'billing/decimal.js'].map(load));
  const bodies = JSON.parse(await readFile(file, 'utf8'));
  const numbers = [];
  const collect = (v) => {
    if (typeof v === 'number') numbers.push(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) collect(x);
  };
  for (const b of bodies) collect(JSON.parse(b));
  const out = { check: [], format: [] };
  for (let r = 0; r <= Number(rounds); r++) {
    let t = cpuNow();
    for (const b of bodies) {
      const json = JSON.parse(b);
      if (tooDeep(json)) throw new Error('too deep');
      check(json, unitConsumption, () => undefined);
    }
    const checked = cpuNow() - t;
    t = cpuNow();
    for (const n of numbers) formatDecimal(n);
    const formatted = cpuNow() - t;
    if (r > 0) (out.check.push(checked / bodies.length), out.format.push(formatted / bodies.length));
  }
  process.stdout.write(JSON.stringify({ ...out, answers: bodies.length, numbers: numbers.length }));
  process.exit(0);
}

const dists = all('--dist');
const rounds = flag('--rounds', 7);
const units = flag('--units', 400);
const sb = await startSandboxProcess({ units, rateLimitPerMinute: 0, latencyMs: [0, 0], oauthRateLimitPerMinute: 0 });
const home = await mkdtemp(path.join(os.tmpdir(), 'md-bench-answers-'));
try {
  const { env } = await signIn(sb, { home });
  const token = (await runCli(['token'], env)).stdout.trim();
  const get = async (p) => {
    const res = await fetch(`${sb.apiBase}${p}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    if (!res.ok) throw new Error(`HTTP ${res.status} for ${p}`);
    return res.text();
  };
  const bodies = [];
  const range = new URLSearchParams({ from: '2025-01-01', to: '2025-12-31' });
  for (let cursor = null, first = true; first || cursor; first = false) {
    const page = JSON.parse(await get(`/properties?limit=200${cursor ? `&page_cursor=${cursor}` : ''}`));
    for (const p of page.data) {
      for (let uc = null, f = true; f || uc; f = false) {
        const units = JSON.parse(await get(`/usage-units?property_id=${p.id}&limit=200${uc ? `&page_cursor=${uc}` : ''}`));
        for (const u of units.data) bodies.push(await get(`/usage-units/${u.id}/consumption?${range}`));
        uc = units.next_cursor;
      }
    }
    cursor = page.next_cursor;
  }
  const file = path.join(home, 'answers.json');
  await writeFile(file, JSON.stringify(bodies));
  const bytes = bodies.reduce((n, b) => n + b.length, 0);
  console.log(`${bodies.length} consumption answers, ${(bytes / bodies.length / 1024).toFixed(1)} KiB each on average (load ${os.loadavg()[0].toFixed(1)})`);
  const results = dists.map(() => ({ check: [], format: [] }));
  // the builds take turns, three children each, so a change in the machine's load falls on both
  for (let turn = 0; turn < 3; turn++) {
    for (const [i, dist] of dists.entries()) {
      const r = JSON.parse(execFileSync(process.execPath, [process.argv[1], '--measure', dist, file, String(rounds)], { encoding: 'utf8' }));
      results[i].check.push(...r.check);
      results[i].format.push(...r.format);
    }
  }
  for (const [i, dist] of dists.entries())
    console.log(
      `${dist}: check ${median(results[i].check).toFixed(1)} µs per answer, formatDecimal of its numbers ${median(results[i].format).toFixed(1)} µs (medians of ${results[i].check.length})`,
    );
  console.log(`load at the end ${os.loadavg()[0].toFixed(1)}`);
} finally {
  await rm(home, { recursive: true, force: true });
  await sb.stop();
}
