// Ctrl-C and SIGTERM sent to the built binary at points where a request is in flight: the
// hostile server holds the answer to /whoami or the Property list, so the signal lands
// exactly there (no race). Every case ends with 130, one line and a hint, no stack trace,
// and nothing under a final name.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { spawnCli } from '../helpers/browser.js';
import { pageOf, startFakeApi, type FakeApi } from '../helpers/fake-api-server.js';
import { aProperty, aWhoAmI } from '../helpers/builders.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin', 'meterdata.js');
const servers: FakeApi[] = [];
beforeAll(() => {
  if (!existsSync(path.join(ROOT, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Runs the binary against `api` with a static token; sends `signal` once `path` has arrived at the server. */
async function interruptAt(api: FakeApi, args: string[], at: string, signal: NodeJS.Signals) {
  const home = await mkdtemp(path.join(os.tmpdir(), 'md-signal-'));
  const env = { PATH: process.env.PATH, HOME: home, METERDATA_HOME: home, METERDATA_ACCESS_TOKEN: 'static-token', METERDATA_BASE_URL: api.baseUrl };
  const child = spawn(process.execPath, [BIN, ...args], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let sent = false;
  for (let i = 0; i < 300 && !sent; i++) {
    if (api.hits(at).length > 0) {
      child.kill(signal);
      sent = true;
    } else await new Promise((r) => setTimeout(r, 50));
  }
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await done;
  clearTimeout(timer);
  return { code, stderr, sent, home };
}

const held = { json: aWhoAmI(), delayMs: 60_000 };

describe('interrupted while the command waits (a request in flight, the browser)', () => {
  it.each([
    ['export', 'SIGINT', '/v1/whoami'],
    ['export', 'SIGTERM', '/v1/properties'],
  ] as const)(
    '%s, %s during %s: exit 130, no stack trace, nothing written',
    async (_cmd, signal, at) => {
      const api = await startFakeApi();
      servers.push(api);
      api.route('/v1/whoami', at === '/v1/whoami' ? held : { json: aWhoAmI() });
      api.route('/v1/properties', { ...pageOf([aProperty()], null), delayMs: 60_000 });
      const r = await interruptAt(api, ['export', '--year', '2025', '--out', 'out'], at, signal);
      expect(r.sent).toBe(true);
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toMatch(/^meterdata: Interrupted/m);
      expect(r.stderr).toMatch(/run the same command again/i);
      expect(r.stderr).not.toMatch(/\n\s+at |bug/);
      const out = path.join(r.home, 'out');
      const left = existsSync(out) ? await readdir(out) : [];
      expect(left.filter((n) => !n.startsWith('.'))).toEqual([]);
    },
    30_000,
  );

  it('status, SIGINT during /whoami: exit 130 (not "NOT working", exit 3), no stack trace', async () => {
    const api = await startFakeApi();
    servers.push(api);
    api.route('/v1/whoami', held);
    const r = await interruptAt(api, ['status'], '/v1/whoami', 'SIGINT');
    expect(r.sent).toBe(true);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/^meterdata: Interrupted by SIGINT\./m);
    expect(r.stderr).not.toMatch(/\n\s+at |bug/);
  }, 30_000);

  it('login, SIGTERM while waiting for the browser: exit 130, nothing stored, no stack trace', async () => {
    const sb = await startSandbox({ clock: '2026-11-22' });
    try {
      const home = await mkdtemp(path.join(os.tmpdir(), 'md-signal-login-'));
      const run = spawnCli(['login', '--no-browser', '--auth-url', sb.url, '--credential-store', 'file'], { HOME: home, METERDATA_HOME: home });
      await run.waitForStderr(/Waiting for the sign-in/);
      run.child.kill('SIGTERM');
      const r = await run.done;
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toMatch(/^meterdata: Sign-in interrupted; nothing was changed\./m);
      expect(r.stderr).not.toMatch(/\n\s+at |bug/);
      expect(existsSync(path.join(home, 'state', 'credentials', 'default.json'))).toBe(false);
    } finally {
      await sb.close();
    }
  }, 30_000);
});
