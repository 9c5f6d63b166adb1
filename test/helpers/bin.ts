// The built binary as a child process (so kill -9 is a real kill), shared by the
// end-to-end tests and the fault harness. Needs `npm run build` (npm test does it).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin', 'meterdata.js');

/** Fails clearly when dist/ is missing or older than src/auth (a stale build would test yesterday's sign-in). */
export function assertBuilt(): void {
  if (!existsSync(path.join(ROOT, 'dist', 'cli.js')))
    throw new Error('dist/ is missing: run `bash scripts/node24 npm run build` first (npm test and npm run test:faults build)');
  const session = path.join(ROOT, 'dist', 'auth', 'session.js');
  if (!existsSync(session) || statSync(session).mtimeMs < statSync(path.join(ROOT, 'src', 'auth', 'session.ts')).mtimeMs) {
    throw new Error('dist/ is older than src/auth: rebuild with `bash scripts/node24 npm run build`');
  }
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function runBin(
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: { onStderr?: (text: string, child: ChildProcess) => void; killAfterMs?: number; timeoutMs?: number; cwd?: string; uid?: number } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // `uid`: as another user (tests run as root), its group the same number and no other groups
    const as = opts.uid === undefined ? [] : ['setpriv', `--reuid=${opts.uid}`, `--regid=${opts.uid}`, '--clear-groups'];
    const [cmd, ...argv] = [...as, process.execPath, BIN, ...args];
    const child = spawn(cmd!, argv, {
      env: { PATH: process.env.PATH, HOME: env.METERDATA_HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      opts.onStderr?.(stderr, child);
    });
    const killer = opts.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs);
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}
