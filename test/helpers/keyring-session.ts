// A private Secret Service for tests: its own D-Bus session bus and a gnome-keyring
// daemon with an unlocked login keyring, in a temporary HOME. Nothing touches the
// developer's real keyring. Stop it with `stop()` (kills only the processes started here).
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'vitest';
import { hasTool, requireTool } from './tools.js';

export interface KeyringSession {
  /** Environment for child processes (DBUS_SESSION_BUS_ADDRESS, HOME, XDG_*). */
  env: NodeJS.ProcessEnv;
  /** secret-tool against this session; returns stdout. */
  secretTool(args: string[]): string;
  stop(): Promise<void>;
}

/** Every outside program a session and its checks run: the bus, the daemon and secret-tool. */
const KEYRING_TOOLS = ['dbus-daemon', 'gnome-keyring-daemon', 'secret-tool'] as const;

/** True when a session can be started and looked into. */
export const hasKeyringTools = (): boolean => KEYRING_TOOLS.every((t) => hasTool(t));

/** Skips locally (fails under CI=true) unless every program the session uses is installed. */
export function requireKeyringTools(ctx: TestContext, why: string): void {
  for (const t of KEYRING_TOOLS) requireTool(ctx, t, why);
}

function waitForLine(child: ChildProcess, what: string, ms = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const t = setTimeout(() => reject(new Error(`${what}: no output within ${ms} ms`)), ms);
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(t);
        resolve(buf.slice(0, nl).trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(t);
      reject(new Error(`${what} exited with ${code}`));
    });
  });
}

export async function startKeyringSession(): Promise<KeyringSession> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'md-keyring-'));
  const runtime = mkdtempSync(path.join(os.tmpdir(), 'md-runtime-'));
  const base: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: path.join(home, '.local', 'share') };
  delete base.DBUS_SESSION_BUS_ADDRESS;
  const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { env: base, stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await waitForLine(bus, 'dbus-daemon');
  const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address };
  // An empty password creates no login keyring, so the keyring gets a throwaway one.
  const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  keyring.stdin!.end('meterdata-test\n');
  // Ready once the daemon has created the login keyring from the password. Nothing may
  // talk to the bus before that: D-Bus activation would start a second, keyring-less daemon.
  const loginKeyring = path.join(home, '.local', 'share', 'keyrings', 'login.keyring');
  const deadline = Date.now() + 10_000;
  while (!existsSync(loginKeyring)) {
    if (Date.now() > deadline || keyring.exitCode !== null) throw new Error('gnome-keyring did not come up on the test bus');
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 200));
  return {
    env,
    secretTool: (args) => execFileSync('secret-tool', args, { env, encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'pipe'] }),
    async stop() {
      for (const p of [keyring, bus]) {
        if (p.exitCode === null && p.pid) {
          const exited = new Promise((r) => p.once('exit', r));
          p.kill('SIGTERM');
          await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
        }
      }
      rmSync(home, { recursive: true, force: true });
      rmSync(runtime, { recursive: true, force: true });
    },
  };
}
