// One workbook's CPU time, without the network: stages one export of the 400-unit data set
// (the portfolio figure's profile) against a sandbox in its own process, then writes its
// billing.xlsx from the same spools `--runs` times in this thread and prints the CPU time
// of each (this thread's, and the process's, which adds zlib's deflate on libuv's pool and
// the garbage collector's helpers). `node bench/workbook.js [--runs 8] [--units 400]`
// after the build; compare two builds with the same data. `--cpu-profile FILE` writes a
// CPU profile of the workbook runs only (not the staging), for Chrome DevTools or speedscope.
import { mkdtemp, rm, readFile, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { threadCpuUsage } from 'node:process';
import { ROOT, signIn, startSandboxProcess } from './lib/harness.js';

const argv = process.argv.slice(2);
const flag = (n, d) => (argv.includes(n) ? Number(argv[argv.indexOf(n) + 1]) : d);
const runs = flag('--runs', 8);
const units = flag('--units', 400);
const profileFile = argv.includes('--cpu-profile') ? argv[argv.indexOf('--cpu-profile') + 1] : null;
const dist = (m) => import(path.join(ROOT, 'dist', m));

const sb = await startSandboxProcess({ units, rateLimitPerMinute: 0, latencyMs: [0, 0], oauthRateLimitPerMinute: 0 });
const home = await mkdtemp(path.join(os.tmpdir(), 'md-bench-workbook-'));
try {
  const { env } = await signIn(sb, { home });
  const [{ parseExportArgs }, { loadTemplate }, { stageInWorker }, { discardOutput }, { writeXlsx }] = await Promise.all(
    [
      'export/options/options.js',
      'export/output/templates.js',
      'export/single.js',
      'export/output/complete.js',
      'export/output/formats/xlsx/xlsx-writer.js',
    ].map(dist),
  );
  const fullEnv = { ...process.env, ...env };
  const args = parseExportArgs({ year: '2025', out: path.join(home, 'out'), quiet: true }, home, fullEnv);
  const template = await loadTemplate(args.template, home);
  const io = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: fullEnv, cwd: home, signal: new AbortController().signal };
  const staged = await stageInWorker({ args, template }, io);
  const cpu = [];
  let sha = '';
  const session = profileFile ? new (await import('node:inspector/promises')).Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  for (let i = 0; i < runs; i++) {
    const t0 = threadCpuUsage();
    const p0 = process.cpuUsage();
    const w0 = performance.now();
    await writeXlsx(staged.output.xlsx);
    const t1 = threadCpuUsage(t0);
    const p1 = process.cpuUsage(p0);
    cpu.push({ thread_ms: (t1.user + t1.system) / 1000, process_ms: (p1.user + p1.system) / 1000, wall_ms: performance.now() - w0 });
    sha = createHash('sha256')
      .update(await readFile(staged.output.xlsx.file))
      .digest('hex');
  }
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(profileFile, JSON.stringify(profile));
    session.disconnect();
  }
  await discardOutput(staged.output);
  const med = (k) =>
    cpu
      .map((c) => c[k])
      .sort((a, b) => a - b)
      [Math.floor(cpu.length / 2)].toFixed(0);
  console.log(cpu.map((c) => `${c.thread_ms.toFixed(0)}/${c.process_ms.toFixed(0)}/${c.wall_ms.toFixed(0)}`).join('  '));
  console.log(
    `workbook of ${units} units: median CPU ${med('thread_ms')} ms this thread, ${med('process_ms')} ms process, ${med('wall_ms')} ms wall over ${runs} runs (load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}); sha256 ${sha.slice(0, 16)}`,
  );
} finally {
  await sb.stop();
  await rm(home, { recursive: true, force: true });
}
