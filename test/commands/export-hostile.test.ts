// A hostile server against `meterdata export` in-process: what it sends cannot steer a
// request elsewhere, crash the journal, or write escape sequences to the user's terminal.
import { existsSync, mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pageOf, problem, startFakeApi, type FakeApi } from '../helpers/fake-api-server.js';
import { runCli } from '../helpers/run-cli.js';
import { aProperty, aUnit, aWhoAmI, uuid } from '../helpers/builders.js';

// C0 but newline, DEL, C1, bidi controls
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = 'Haus\u001b[2J\u001b]0;owned\u0007\r\nmeterdata: all done \u202eSCV.exe\u009b';

let api: FakeApi | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

async function hostileApi(props: unknown[]): Promise<FakeApi> {
  api = await startFakeApi();
  api.route(/.*/, problem(400, 'invalid-request', { detail: HOSTILE }));
  api.route('/v1/whoami', { json: aWhoAmI() });
  api.route('/v1/properties', pageOf(props, null));
  return api;
}

function exportRun(base: string, extra: NodeJS.ProcessEnv = {}) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'md-hostile-'));
  const env = { METERDATA_HOME: home, METERDATA_ACCESS_TOKEN: 'tok-hostile', METERDATA_BASE_URL: base, ...extra };
  return { home, run: () => runCli(['export', '--year', '2025', '--out', path.join(home, 'out'), '--format', 'csv'], { env, cwd: home }) };
}

describe('export against a hostile server', () => {
  it('escapes control characters in names and problem details before they reach the terminal', async () => {
    const a = await hostileApi([aProperty({ id: uuid(), name: HOSTILE })]);
    const r = await exportRun(a.baseUrl).run();
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('\\u{1b}[2J');
    expect(r.stderr).toContain('\\u{202e}SCV.exe');
    expect(r.stderr).not.toMatch(CONTROL);
    // the server's \r\n did not start a line of its own
    expect(r.stderr).not.toMatch(/^meterdata: all done/m);
  });

  it('refuses an id that is not a UUID before it goes into a URL path (exit 5, naming it)', async () => {
    const pid = uuid();
    const a = await hostileApi([aProperty({ id: pid })]);
    a.route('/v1/usage-units', pageOf([aUnit({ id: '../../whoami?x=', name: 'WE 01', property_id: pid })], null));
    a.route(`/v1/properties/${pid}/measuring-points`, pageOf([], null));
    const r = await exportRun(a.baseUrl).run();
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('sent a usage unit id that is not a UUID ("../../whoami?x="); meterdata will not put it into a request.');
    expect(a.requests.map((q) => q.url).filter((u) => u.includes('..') || u.includes('consumption'))).toEqual([]);
  });

  it('refuses an answer nested 20,000 levels deep as a broken answer (exit 5) instead of crashing the journal', async () => {
    const deep = `${'{"x":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const a = await hostileApi([]);
    const page = JSON.stringify({ data: [{ ...aProperty(), future_field: 0 }], next_cursor: null, prev_cursor: null }).replace(
      '"future_field":0',
      `"future_field":${deep}`,
    );
    a.route('/v1/properties', { body: page, headers: { 'content-type': 'application/json' } });
    const { home, run } = exportRun(a.baseUrl);
    const r = await run();
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/breaks the API contract: nests deeper than 64 levels/);
    expect(r.stderr).not.toMatch(/unexpected failure|Maximum call stack/);
    expect(existsSync(path.join(home, 'out'))).toBe(false);
  });
});

describe('status against a hostile server', () => {
  it('shows the tenant name with its control characters escaped', async () => {
    const a = await hostileApi([aProperty({ id: uuid(), name: HOSTILE })]);
    a.route('/v1/whoami', { json: { ...aWhoAmI(), tenant_name: HOSTILE } });
    const r = await runCli(['status'], {
      env: { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-hostile-')), METERDATA_ACCESS_TOKEN: 'tok', METERDATA_BASE_URL: a.baseUrl },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Haus\\u{1b}[2J');
    expect(r.stdout + r.stderr).not.toMatch(CONTROL);
  });

  it('--json (status, export) carries the same name, with C1 and bidi controls written as JSON escapes', async () => {
    const a = await hostileApi([aProperty({ id: uuid(), name: HOSTILE })]);
    a.route('/v1/whoami', { json: { ...aWhoAmI(), tenant_name: HOSTILE } });
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-hostile-')), METERDATA_ACCESS_TOKEN: 'tok', METERDATA_BASE_URL: a.baseUrl };
    const status = await runCli(['status', '--json'], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).not.toMatch(CONTROL);
    expect((JSON.parse(status.stdout) as { tenant_name: string }).tenant_name).toBe(HOSTILE);
    a.route('/v1/usage-units', pageOf([], null));
    a.route(/^\/v1\/properties\/[^/]+\/measuring-points/, pageOf([], null));
    const out = path.join(env.METERDATA_HOME, 'out');
    const exp = await runCli(['export', '--year', '2025', '--out', out, '--format', 'csv', '--json', '--quiet'], { env, cwd: env.METERDATA_HOME });
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.stdout).not.toMatch(CONTROL);
    expect((JSON.parse(exp.stdout) as { tenant: string }).tenant).toBe(HOSTILE);
  });
});

describe('no token over plain http to another machine', () => {
  it('METERDATA_BASE_URL=http://<not loopback> with METERDATA_ACCESS_TOKEN is a usage error, and nothing is sent', async () => {
    // 127.0.0.2 reaches this machine, but is none of the loopback names the contract allows plain http for.
    let connections = 0;
    const trap = http.createServer((_req, res) => res.end('{}'));
    trap.on('connection', () => connections++);
    await new Promise<void>((r) => trap.listen(0, '127.0.0.2', r));
    try {
      const base = `http://127.0.0.2:${(trap.address() as AddressInfo).port}/v1`;
      const r = await exportRun(base).run();
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `The API base URL http://127.0.0.2:${(trap.address() as AddressInfo).port} is not https; meterdata sends tokens over plain http only to 127.0.0.1, localhost or [::1].`,
      );
      const status = await runCli(['status'], {
        env: { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-hostile-')), METERDATA_ACCESS_TOKEN: 'tok', METERDATA_BASE_URL: base },
      });
      expect(status.code).not.toBe(0);
      expect(status.stdout + status.stderr).toContain('is not https; meterdata sends tokens over plain http only to 127.0.0.1, localhost or [::1].');
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((r) => trap.close(() => r()));
    }
  });

  it('a METERDATA_BASE_URL that is not a URL is a usage error naming it, not a crash', async () => {
    const r = await exportRun('example.com/v1').run();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('The API base URL "example.com/v1" is not a URL.');
    expect(r.stderr).not.toMatch(/unexpected failure|TypeError/);
  });
});

describe('Ctrl-C before the export has started', () => {
  it('while /whoami is still on its way: exit 130 with one line saying so, not an unexpected failure', async () => {
    api = await startFakeApi();
    api.route('/v1/whoami', { json: aWhoAmI(), delayMs: 5_000 });
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-interrupt-'));
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('interrupted by SIGINT')), 300);
    const env = { METERDATA_HOME: home, METERDATA_ACCESS_TOKEN: 'tok', METERDATA_BASE_URL: api.baseUrl };
    const r = await runCli(['export', '--year', '2025', '--out', path.join(home, 'out')], { env, cwd: home, signal: ac.signal });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/^meterdata: Interrupted/);
    expect(r.stderr).not.toMatch(/unexpected failure|^\s+at /m);
    expect(existsSync(path.join(home, 'out'))).toBe(false);
  });
});
