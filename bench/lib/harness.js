// Shared by the benchmarks and the fault harness: the sandbox in a child process, a
// headless sign-in into a fresh METERDATA_HOME, and `meterdata export` run as a child
// process of the built binary with its wall time and peak RSS.
import { fork, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** MD_BENCH_BIN: measure another build's launcher (e.g. a patched copy) with the same harness. */
export const BIN = process.env.MD_BENCH_BIN || path.join(ROOT, 'bin', 'meterdata.js');
const HOOK = path.join(ROOT, 'bench', 'lib', 'rusage-hook.js');
/** 2026-01-01T00:00:00Z: every run writes the same export time, so files compare byte for byte. */
export const EPOCH = '1767225600';
export const CLOCK = '2026-11-22';

/**
 * Starts the sandbox in its own process. opts are startSandbox options
 * (units, seed, rateLimitPerMinute, latencyMs, faults, autoConsent, clock, admin).
 */
export async function startSandboxProcess(opts) {
  const child = fork(path.join(ROOT, 'bench', 'lib', 'sandbox-child.js'), [JSON.stringify({ autoConsent: true, clock: CLOCK, seed: 'bench', ...opts })], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  const pending = new Map();
  let next = 0;
  const ready = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`sandbox process exited (${code}) before it was ready`)));
    child.on('message', (m) => {
      if (m.ready) resolve(m);
      else if (pending.has(m.id)) {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.error) p.reject(new Error(m.error));
        else p.resolve(m);
      }
    });
  });
  const { url, apiBase } = await ready;
  return {
    url,
    apiBase,
    pid: child.pid,
    call(op, args = {}) {
      const id = ++next;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, op, ...args });
      });
    },
    async stats(reset = false) {
      return this.call('stats', { reset });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.disconnect();
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(t);
    },
  };
}

/** Signs in to an auto-consent sandbox into a fresh METERDATA_HOME (file credential store). */
export async function signIn(sandbox, { home, profile } = {}) {
  const { headlessLogin } = await import('../../dist/sandbox/headless-login.js');
  home ??= await mkdtemp(path.join(os.tmpdir(), 'md-bench-'));
  const env = { METERDATA_HOME: home, METERDATA_CREDENTIAL_STORE: 'file', SOURCE_DATE_EPOCH: EPOCH };
  await headlessLogin({ authUrl: sandbox.url, baseUrl: sandbox.apiBase, env, signal: AbortSignal.timeout(60_000), ...(profile ? { profile } : {}) });
  return { home, env };
}

/**
 * Signs in, then waits 61 s: the sign-in's /whoami opens the connection's first one-minute window at
 * the sandbox, so a paced run starts in a fresh window and what is measured is its own pacing (right
 * after a sign-in, the sign-in's request and a full first minute of requests share one window: see
 * bench/README.md). Resolves with the sign-in and the request log at the start (arrivals reset).
 */
export async function signInFreshWindow(sandbox, log) {
  const signedIn = await signIn(sandbox);
  log(`  waiting 61 s after the sign-in …`);
  await new Promise((r) => setTimeout(r, 61_000));
  return { ...signedIn, before: (await sandbox.stats(true)).log };
}

/**
 * Runs `meterdata <args>` as a child process. Resolves with exit code, signal, output,
 * wall time and (when measured) peak RSS in MiB with a memoryUsage() breakdown near the peak, the
 * process's CPU time (user + system, µs) and each thread's (`threads`: what it ran, its CPU time,
 * start and end in ms since the epoch). `spawnedAt` is the child's start, ms since the epoch.
 * onStderr(text, child) sees the growing stderr.
 */
export function runCli(args, env, { onStderr, timeoutMs = 30 * 60_000, measure = false, startedAt } = {}) {
  return new Promise((resolve, reject) => {
    const rusageFile = measure ? path.join(env.METERDATA_HOME ?? os.tmpdir(), `rusage-${process.pid}-${Math.random().toString(36).slice(2)}.json`) : undefined;
    const t0 = performance.now();
    const spawnedAt = performance.timeOrigin + t0;
    // MD_BENCH_NODE_ARGS: node's own arguments for the measured process (worker threads inherit them), e.g.
    // `--cpu-prof --cpu-prof-dir=/tmp/prof`, or V8 flags NODE_OPTIONS refuses (`--single-threaded-gc`)
    const nodeArgs = measure ? (process.env.MD_BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean) : [];
    const child = spawn(process.execPath, [...nodeArgs, ...(measure ? ['--import', HOOK] : []), BIN, ...args], {
      env: {
        PATH: process.env.PATH,
        HOME: env.METERDATA_HOME ?? os.homedir(),
        ...env,
        ...(rusageFile ? { MD_BENCH_RUSAGE: rusageFile } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    startedAt?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => {
      stderr += c;
      onStderr?.(stderr, child);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', async (code, signal) => {
      clearTimeout(timer);
      const wallMs = performance.now() - t0;
      let peakRssMiB = null;
      let memoryAtPeakMiB = null;
      let cpuMicros = null;
      let threads = null;
      let nativeThreads = null;
      if (rusageFile) {
        try {
          const u = JSON.parse(await readFile(rusageFile, 'utf8'));
          peakRssMiB = u.maxRSS / 1024;
          cpuMicros = u.userCPUTime + u.systemCPUTime;
          nativeThreads = u.nativeThreads ?? null;
          memoryAtPeakMiB = Object.fromEntries(Object.entries(u.memoryAtPeak).map(([k, v]) => [k, Math.round(v / 2 ** 20)]));
          await rm(rusageFile, { force: true });
          threads = (await readFile(`${rusageFile}.threads`, 'utf8'))
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
          await rm(`${rusageFile}.threads`, { force: true });
        } catch {
          // killed before its exit handler ran
        }
      }
      resolve({ code, signal, stdout, stderr, wallMs, spawnedAt, peakRssMiB, memoryAtPeakMiB, cpuMicros, threads, nativeThreads });
    });
  });
}

/** The files of a folder by name (hidden ones included), as buffers. */
export async function readFolder(dir) {
  const out = new Map();
  let names = [];
  try {
    names = (await readdir(dir)).sort();
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
  for (const n of names) out.set(n, await readFile(path.join(dir, n)));
  return out;
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
