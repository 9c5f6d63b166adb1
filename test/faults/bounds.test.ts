// Every wait and walk bounded, the connection never lost by meterdata's doing (issue "Trust",
// sections 2-3), with the built binary against the sandbox behind a hostile proxy. API faults:
// a huge Retry-After, lists that never end (empty pages under fresh cursors, a cursor cycle),
// an oversized answer; each must end the run with exit 5 naming the endpoint, nothing under a
// final name, and a re-run without the fault must finish with the clean run's files. Refresh
// faults: the token endpoint's answer timed out or cut off (exit 3, the token never re-sent,
// the connection not revoked), and a stale-lock takeover while a refresh is in flight (the
// intent is seen, nothing is sent, the stalled holder finishes).
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { setProfileFields } from '../../src/core/config.js';
import { proxySandbox, spawnCli, type SandboxProxy } from '../helpers/browser.js';
import { assertBuilt, differences, folder, FULL, halfWritten, report, runBin, signedIn } from '../helpers/faults.js';
import { setAccessExpiry, signedIn as signedInFixture, storeFile } from '../helpers/signed-in.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '3000'];
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let home: string;
let clean: Map<string, Buffer>;
let token: string;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, env, home } = await signedIn({ units: 60, rateLimitPerMinute: 0 }));
  const r = await runBin([...ARGS, '--out', path.join(home, 'clean')], env);
  expect(r.code, r.stderr).toBe(0);
  clean = await folder(path.join(home, 'clean'));
  token = (await runBin(['token'], env)).stdout.trim();
}, 90_000);
afterAll(async () => sandbox?.close());

type Fault = (url: URL, n: number) => ((res: ServerResponse) => void) | 'cycle' | undefined;

const problem429 = (retryAfter: string) => (res: ServerResponse) => {
  res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': retryAfter });
  res.end(JSON.stringify({ type: 'https://developer.example/errors/#too-many-requests', title: 'Too many requests', status: 429, trace_id: 'proxy' }));
};

/** Forwards to the sandbox's API; `fault` may answer a request itself, or ask for its page again under a fresh cursor. */
async function hostileProxy(fault: Fault): Promise<{ server: Server; base: string; off: () => void }> {
  const target = new URL(sandbox.url);
  let n = 0;
  let on = true;
  let loops = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const f = on ? fault(url, ++n) : undefined;
    if (typeof f === 'function') return f(res);
    if (f === 'cycle') url.searchParams.delete('page_cursor'); // the first page again
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: url.pathname + url.search, headers: req.headers }, (answer) => {
      if (f !== 'cycle' || answer.statusCode !== 200) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        return void answer.pipe(res);
      }
      let raw = '';
      answer.on('data', (c: Buffer) => (raw += c.toString()));
      answer.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...JSON.parse(raw), next_cursor: `loop-${++loops}` }));
      });
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, off: () => (on = false) };
}

const unitsOf2nd = (url: URL) =>
  url.pathname === '/v1/usage-units' && url.searchParams.has('property_id') && url.searchParams.get('property_id') !== firstProperty();
const firstProperty = () => sandbox.dataset.propertyId(sandbox.dataset.properties(sandbox.dataset.tenants()[0]!.id)[0]!);
const huge = (bytes: number, announce: boolean) => (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json', ...(announce ? { 'content-length': String(bytes) } : {}) });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const pump = () => {
    while (sent < bytes && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
};

const API_FAULTS: [string, RegExp, Fault][] = [
  ['Retry-After: 1000000000 on the 20th request', /RATE_LIMITED|asked to wait \d+ days/, (_u, n) => (n === 20 ? problem429('1000000000') : undefined)],
  [
    'Retry-After as an HTTP date an hour ahead',
    /asked to wait 60 minutes/,
    (_u, n) => (n === 20 ? problem429(new Date(Date.now() + 3_600_000).toUTCString()) : undefined),
  ],
  [
    'empty unit pages under fresh cursors (2nd Property)',
    /does not end: it sent page 1 without items/,
    (u, n) =>
      unitsOf2nd(u)
        ? (res) => (
            res.writeHead(200, { 'content-type': 'application/json' }),
            res.end(JSON.stringify({ data: [], next_cursor: `fresh-${n}`, prev_cursor: null }))
          )
        : undefined,
  ],
  ['a cursor cycle: the units page again under a fresh cursor', /does not end: it listed \S+ again on page 2/, (u) => (unitsOf2nd(u) ? 'cycle' : undefined)],
  [
    'a 300 MB answer to a consumption request',
    /larger than 32 MiB/,
    (u, n) => (/\/consumption$/.test(u.pathname) && n > 10 ? huge(300 * 1024 * 1024, false) : undefined),
  ],
  ...(FULL
    ? ([
        [
          'an announced 600 MB answer to the Property list',
          /larger than 32 MiB/,
          (u: URL) => (u.pathname === '/v1/properties' ? huge(600 * 1024 * 1024, true) : undefined),
        ],
        ['Retry-After: 1000000000 on /whoami', /asked to wait/, (u: URL) => (u.pathname === '/v1/whoami' ? problem429('1000000000') : undefined)],
      ] as [string, RegExp, Fault][])
    : []),
];

describe('bounded waits and walks', () => {
  it(`${API_FAULTS.length} hostile answers: exit 5 naming the endpoint, nothing half-written, a re-run finishes with the clean files`, async () => {
    const lost: string[] = [];
    let passed = 0;
    for (const [name, message, fault] of API_FAULTS) {
      const proxy = await hostileProxy(fault);
      const out = path.join(home, `bounds-${passed + lost.length}`);
      const run = { ...env, METERDATA_ACCESS_TOKEN: token, METERDATA_BASE_URL: proxy.base };
      const r = await runBin([...ARGS, '--out', out], run, { timeoutMs: 60_000 });
      const left = halfWritten(clean, await folder(out));
      proxy.off();
      const again = await runBin([...ARGS, '--out', out], run, { timeoutMs: 60_000 });
      proxy.server.close();
      const diff = differences(clean, await folder(out));
      const problems = [
        r.code !== 5 && `exit ${r.code ?? r.signal}, not 5`,
        !message.test(r.stderr) && `message ${message} not in: ${r.stderr.trim().split('\n').slice(-2).join(' / ')}`,
        !/GET \/v1\//.test(r.stderr) && 'the endpoint is not named',
        /^\s+at /m.test(r.stderr) && 'a stack trace was printed',
        left.length > 0 && `left [${left.join(', ')}]`,
        again.code !== 0 && `the re-run exited ${again.code}: ${again.stderr.trim().split('\n').at(-1)}`,
        again.code === 0 && diff.length > 0 && `the re-run's files differ in [${diff.join(', ')}]`,
      ].filter(Boolean);
      console.log(`[faults]   ${name} → exit ${r.code} in ${Math.round(r.ms)} ms: ${r.stderr.trim().split('\n').slice(-2).join(' / ').slice(0, 240)}`);
      if (problems.length) lost.push(`${name}: ${problems.join(', ')}`);
      else passed++;
    }
    report({ scenario: 'huge Retry-After, endless lists, oversized answers', trials: API_FAULTS.length, passed, lost });
    expect(lost).toEqual([]);
  }, 300_000);
});

/** A fresh sign-in to the sandbox whose token requests go through `proxy`; the access token expired locally. */
async function signedInBehind(proxy: SandboxProxy, extra: Record<string, string> = {}) {
  const before = new Set(sandbox.admin.connections().map((c) => c.sid));
  const testEnv = { SOURCE_DATE_EPOCH: env.SOURCE_DATE_EPOCH, METERDATA_TEST_HOOKS: '1', METERDATA_TEST_LOCK_STALE_MS: '2000', ...extra };
  const { env: e, home: h } = await signedInFixture({ at: sandbox, credentialStore: 'file', env: testEnv, homePrefix: 'md-faults-refresh-' });
  await setProfileFields(e, 'default', { auth_url: proxy.url });
  setAccessExpiry(storeFile(e));
  const sid = sandbox.admin.connections().find((c) => !before.has(c.sid))!.sid;
  return { env: e, home: h, sid };
}

describe('the connection is never lost by meterdata', () => {
  it('refresh answer timed out or cut off, and a stale-lock takeover while a refresh is in flight', async () => {
    const proxy = await proxySandbox(sandbox.url);
    const lost: string[] = [];
    let passed = 0;
    const stateOf = (sid: string) => sandbox.admin.connections().find((c) => c.sid === sid)?.state;
    const posts = () => proxy.count('POST', '/oauth/token');
    try {
      for (const mode of ['stall', 'cut'] as const) {
        const s = await signedInBehind(proxy, { METERDATA_TEST_TOKEN_TIMEOUT_MS: '1000' });
        proxy.lose = (r) => (r.path === '/oauth/token' ? mode : undefined);
        const out = path.join(s.home, 'out');
        const r = await runBin([...ARGS, '--out', out], s.env, { timeoutMs: 60_000 });
        proxy.lose = undefined;
        const sent = posts();
        const next = await runBin([...ARGS, '--out', out], s.env, { timeoutMs: 60_000 });
        const left = halfWritten(clean, await folder(out));
        const problems = [
          r.code !== 3 && `exit ${r.code}, not 3`,
          !/sign in again/.test(r.stderr) && `no "sign in again" in: ${r.stderr.trim().split('\n').slice(-2).join(' / ')}`,
          next.code !== 3 && `the next run exited ${next.code}, not 3`,
          posts() !== sent && 'the next run sent the refresh token again',
          stateOf(s.sid) !== 'connected' && `the connection is ${stateOf(s.sid)}`,
          left.length > 0 && `left [${left.join(', ')}]`,
        ].filter(Boolean);
        console.log(
          `[faults]   refresh answer ${mode === 'stall' ? 'timed out' : 'cut off'} → exit ${r.code}, next run exit ${next.code}: ${next.stderr.trim().split('\n').at(-2)}`,
        );
        if (problems.length) lost.push(`refresh answer ${mode}: ${problems.join(', ')}`);
        else passed++;
      }

      // A holds the lock with its refresh in flight and is stopped past the stale limit; B takes over.
      const s = await signedInBehind(proxy);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let arrived = false;
      proxy.intercept = async (r) => (r.path === '/oauth/token' ? ((arrived = true), await held, undefined) : undefined);
      const a = spawnCli([...ARGS, '--out', path.join(s.home, 'a')], s.env);
      for (let i = 0; i < 400 && !arrived; i++) await new Promise((r) => setTimeout(r, 25));
      a.child.kill('SIGSTOP');
      await new Promise((r) => setTimeout(r, 2600));
      const sent = posts();
      const b = await runBin([...ARGS, '--out', path.join(s.home, 'b')], s.env, { timeoutMs: 60_000 });
      const bSent = posts() - sent;
      release();
      proxy.intercept = undefined;
      a.child.kill('SIGCONT');
      const ra = await a.done;
      const diff = differences(clean, await folder(path.join(s.home, 'a')));
      const problems = [
        !arrived && 'A never sent its refresh',
        b.code !== 5 && `B exited ${b.code}, not 5`,
        bSent !== 0 && `B sent ${bSent} token requests`,
        ra.code !== 0 && `A exited ${ra.code}: ${ra.stderr.trim().split('\n').at(-1)}`,
        diff.length > 0 && `A's files differ in [${diff.join(', ')}]`,
        stateOf(s.sid) !== 'connected' && `the connection is ${stateOf(s.sid)}`,
      ].filter(Boolean);
      console.log(
        `[faults]   stale-lock takeover with a refresh in flight → B exit ${b.code}: ${b.stderr.trim().split('\n').slice(-2).join(' / ').slice(0, 240)}; A exit ${ra.code}`,
      );
      if (problems.length) lost.push(`stale-lock takeover: ${problems.join(', ')}`);
      else passed++;
    } finally {
      await proxy.close();
    }
    report({ scenario: 'refresh answer timed out / cut off; stale-lock takeover with the intent recorded', trials: 3, passed, lost });
    expect(lost).toEqual([]);
  }, 300_000);
});
