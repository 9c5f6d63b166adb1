// `meterdata browse` of an installed build (the npm package, the single executable) in a
// tmux pane of its own tmux server, against a sandbox: it must show the Properties and
// quit with status 0 on `q`. The full walk-through is test/e2e/browse-tmux.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { headlessLogin } from '../../src/sandbox/headless-login.js';
import { startSandbox } from '../../src/sandbox/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `command browse --year 2025` with exactly `env` (plus METERDATA_HOME); returns the panes seen. */
export async function browseAndQuit(command: string[], env: Record<string, string>): Promise<{ list: string; end: string }> {
  const sandbox = await startSandbox({ port: 0, autoConsent: true, clock: '2026-11-22' });
  const socket = `meterdata-install-${process.pid}-${Date.now()}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  try {
    const home = await mkdtemp(path.join(os.tmpdir(), 'md-install-browse-'));
    await headlessLogin({ authUrl: sandbox.url, baseUrl: sandbox.apiBase, env: { METERDATA_HOME: home }, signal: AbortSignal.timeout(60_000) });
    const vars = Object.entries({ ...env, METERDATA_HOME: home, NO_COLOR: '1', TERM: 'xterm-256color' }).map(([k, v]) => `${k}=${quote(v)}`);
    const line = `cd ${quote(home)} && env -i ${vars.join(' ')} ${command.map(quote).join(' ')} browse --year 2025; echo EXIT=$?; sleep 30`;
    tmux('new-session', '-d', '-s', 'browse', '-x', '100', '-y', '30', line);
    const waitFor = async (pred: (p: string) => boolean, what: string) => {
      let last = '';
      for (let i = 0; i < 200; i++) {
        last = tmux('capture-pane', '-p', '-t', 'browse');
        if (pred(last)) return last;
        await sleep(100);
      }
      throw new Error(`browse never showed ${what}; the pane was:\n${last}`);
    };
    const list = await waitFor((p) => (p.includes('Musterstraße 1-5') && p.includes('q quit')) || p.includes('EXIT='), 'the Properties');
    tmux('send-keys', '-t', 'browse', 'q');
    const end = await waitFor((p) => p.includes('EXIT='), 'an exit');
    return { list, end };
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // already gone
    }
    await sandbox.close();
  }
}
