// Ctrl-C in a German run (issue 11): the built binary says it was interrupted in German,
// with the exit status of every interruption (130). The hostile server holds /whoami so
// the signal lands while the request is in flight.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, assertBuilt } from '../helpers/bin.js';
import { findEnglish } from '../helpers/catalogues.js';
import { startFakeApi, type FakeApi } from '../helpers/fake-api-server.js';
import { aWhoAmI } from '../helpers/builders.js';

const servers: FakeApi[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe('interrupted in German', () => {
  it('status, SIGINT during /whoami: "Abgebrochen durch SIGINT.", a German hint, exit 130', async () => {
    assertBuilt();
    const api = await startFakeApi();
    servers.push(api);
    api.route('/v1/whoami', { json: aWhoAmI(), delayMs: 60_000 });
    const home = await mkdtemp(path.join(os.tmpdir(), 'md-signal-de-'));
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      METERDATA_HOME: home,
      METERDATA_ACCESS_TOKEN: 'static-token',
      METERDATA_BASE_URL: api.baseUrl,
      LANG: 'de_DE.UTF-8',
    };
    const child = spawn(process.execPath, [BIN, 'status'], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    for (let i = 0; i < 300 && api.hits('/v1/whoami').length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(api.hits('/v1/whoami').length).toBe(1);
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await done;
    clearTimeout(timer);
    expect(code, stderr).toBe(130);
    expect(stderr).toBe('meterdata: Abgebrochen durch SIGINT.\n  Nichts wurde halb geschrieben; führen Sie denselben Befehl erneut aus, um fortzufahren.\n');
    expect(await findEnglish(stderr)).toEqual([]);
  }, 30_000);
});
