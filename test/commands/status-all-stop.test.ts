// `status --all` over a config.json of many damaged entries (round 40a, 41 M1): each is read without waiting on
// anything, so Ctrl-C was not heard until the whole list was done (60,000 entries: minutes), and the stop then came
// with a profile's "not signed in" beside it (41 L5). And it read config.json twice per profile: 4,000 profiles took 2
// minutes (session 26); it is read once for all.
import fs, { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError, ServiceUnavailableError } from '../../src/core/errors.js';
import { aProfile } from '../helpers/profile.js';
import { runCli } from '../helpers/run-cli.js';

describe('status --all over thousands of damaged profiles', () => {
  it('stopped by Ctrl-C: ends with 130 at once, and tells the stop alone', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-status-all-stop-'));
    mkdirSync(path.join(home, 'config'), { recursive: true });
    // enough that the run outlasts the stop: read once, 6,000 were done within the 300 ms (session 26)
    const profiles = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`j${i}`, {}]));
    writeFileSync(path.join(home, 'config', 'config.json'), JSON.stringify({ profiles }));
    const stop = new AbortController();
    setTimeout(() => stop.abort(new InterruptedError('Interrupted by SIGINT.')), 300);
    const t0 = Date.now();
    const r = await runCli(['status', '--all', '--lang', 'en'], { env: { METERDATA_HOME: home }, signal: stop.signal });
    expect([r.code, Date.now() - t0 < 3000], r.stderr.slice(0, 300)).toEqual([130, true]);
    expect(r.stderr).toMatch(/Interrupted by SIGINT/);
    expect(r.stderr).not.toMatch(/not signed in/);
  }, 120_000);
});

describe('status --all over many profiles', () => {
  it('reads config.json once for all of them, not once or twice per profile; each is still reported', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-status-all-once-'));
    mkdirSync(path.join(home, 'config'), { recursive: true, mode: 0o700 });
    const profiles = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, aProfile(`p${i}`)]));
    writeFileSync(path.join(home, 'config', 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
    const real = fs.openSync;
    let opens = 0;
    fs.openSync = ((file: fs.PathLike, ...rest: Parameters<typeof fs.openSync> extends [unknown, ...infer R] ? R : never) => {
      if (String(file).endsWith('config.json')) opens++;
      return real(file, ...rest);
    }) as typeof fs.openSync;
    syncBuiltinESMExports(); // the modules' named imports of openSync see it too
    try {
      const r = await runCli(['status', '--all', '--json', '--lang', 'en'], { env: { METERDATA_HOME: home } });
      expect(r.code, r.stderr.slice(0, 300)).toBe(3);
      expect(JSON.parse(r.stdout)).toHaveLength(200);
    } finally {
      fs.openSync = real;
      syncBuiltinESMExports();
    }
    expect(opens).toBeGreaterThan(0);
    expect(opens).toBeLessThanOrEqual(3);
  }, 60_000);
});

// Round 58 T1: read once for all, a profile signed in again while the run was at another was judged by its old
// landlord (AUTH_OTHER_TENANT, its new access token dropped). The file is read again where it changed.
describe('status --all while another process changes config.json', () => {
  it('judges each profile by config.json as it is when that profile is checked', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-status-all-changed-'));
    const file = path.join(home, 'config', 'config.json');
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const write = (tenant: string) =>
      writeFileSync(file, JSON.stringify({ profiles: { a: aProfile('a'), b: { ...aProfile('b'), tenant_id: tenant } } }), { mode: 0o600 });
    write('old-landlord');
    const unavailable = () => new ServiceUnavailableError('the service is down');
    const connect = async (o: { profile?: string }) => {
      if (o.profile === 'a') write('new-landlord'); // a login of b in another process, while a is checked
      throw unavailable();
    };
    const r = await runCli(['status', '--all', '--json', '--lang', 'en'], { env: { METERDATA_HOME: home }, parts: { connect } as never });
    expect(r.code, r.stderr.slice(0, 300)).toBe(3);
    const reports = JSON.parse(r.stdout) as { profile: string; tenant_id?: string }[];
    expect(reports.find((x) => x.profile === 'b')?.tenant_id).toBe('new-landlord');
  });
});
