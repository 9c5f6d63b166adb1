// A connection revoked in the middle of a run (the landlord disconnects in the portal)
// and a Property withdrawn in the middle of a run: the documented exit codes (3 and 4,
// README "Exit codes") and messages, and nothing half-written in the out folder.
//
// The sandbox has no operator action that narrows a live connection's property selection
// (the spec offers none either: a narrower selection means a new consent). What a client
// then sees is what this test plays with a small proxy in front of the sandbox: ids of
// the withdrawn Property answer 404 resource-not-found, its unit list comes back empty,
// and /whoami lists the remaining Properties.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, FINAL, folder, report, runBin, signedIn } from '../helpers/faults.js';
import { signInTo } from '../helpers/signed-in.js';

const ARGS = ['export', '--year', '2025', '--rate-limit', '3000'];
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let home: string;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, env, home } = await signedIn({ units: 300, latencyMs: [20, 60], rateLimitPerMinute: 0 }));
}, 60_000);
afterAll(async () => sandbox?.close());

function leftovers(got: Map<string, Buffer>): string[] {
  return [...got.keys()].filter((n) => FINAL.includes(n) || n.endsWith('.partial'));
}

/** Forwards to the sandbox; after `afterConsumption` consumption calls of the Property, withdraws it. */
async function withdrawingProxy(propertyIndex: number, afterConsumption: number): Promise<{ server: Server; base: string; name: string }> {
  const ds = sandbox.dataset;
  const tenant = ds.tenants()[0]!;
  const props = ds.properties(tenant.id);
  const p = props[propertyIndex]!;
  const pid = ds.propertyId(p);
  const ids = new Set<string>([pid]);
  for (let u = p.unitStart; u < p.unitEnd; u++) ids.add(ds.unitId(ds.unitByIndex(u)!));
  for (const pt of ds.pointsOfProperty(p)) ids.add(ds.pointId(pt));
  const remaining = props.filter((q) => q !== p).map((q) => ds.propertyId(q));
  const target = new URL(sandbox.url);
  let seen = 0;
  let withdrawn = false;

  const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, { 'content-type': type });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const mentioned = [...url.pathname.split('/'), url.searchParams.get('property_id') ?? ''].some((s) => ids.has(s));
    if (mentioned && /\/consumption$/.test(url.pathname) && ++seen > afterConsumption) withdrawn = true;
    if (withdrawn && mentioned) {
      if (url.pathname === '/v1/usage-units') return send(res, 200, { data: [], next_cursor: null, prev_cursor: null });
      const problem = {
        type: 'https://developer.example/errors/#resource-not-found',
        title: 'Resource not found',
        status: 404,
        detail: `No resource at ${url.pathname}.`,
        instance: url.pathname,
        trace_id: 'proxy',
      };
      return send(res, 404, problem, 'application/problem+json');
    }
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (withdrawn && url.pathname === '/v1/whoami' && answer.statusCode === 200) {
        let raw = '';
        answer.on('data', (c: Buffer) => (raw += c.toString()));
        answer.on('end', () => send(res, 200, { ...JSON.parse(raw), property_scope: remaining }));
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, name: p.name };
}

describe('the connection changes under a running export', () => {
  it('revoked mid-run: exit 3 naming `meterdata login`; withdrawn Property mid-run: exit 4 naming it; nothing half-written', async () => {
    const lost: string[] = [];
    let passed = 0;

    // 1. The landlord disconnects the application while the second Property is fetched.
    const sid = sandbox.admin.connections().find((c) => c.state === 'connected')!.sid;
    const out1 = path.join(home, 'revoked');
    let disconnected = false;
    const r1 = await runBin([...ARGS, '--out', out1], env, {
      onStderr: (text) => {
        if (!disconnected && /property 1\//.test(text)) {
          disconnected = true;
          void sandbox.admin.disconnect(sid);
        }
      },
    });
    const left1 = leftovers(await folder(out1));
    const p1 = [
      !disconnected && 'the run ended before the disconnect',
      r1.code !== 3 && `exit ${r1.code}, not 3`,
      !/meterdata login/.test(r1.stderr) && `no "meterdata login" in: ${r1.stderr.trim().split('\n').slice(-2).join(' / ')}`,
      /^\s+at /m.test(r1.stderr) && 'a stack trace was printed',
      left1.length > 0 && `left [${left1.join(', ')}]`,
    ].filter(Boolean);
    if (p1.length) lost.push(`revoked: ${p1.join(', ')}`);
    else passed++;

    // 2. A new sign-in; the second Property is withdrawn after 5 of its units were read.
    const relogin = await signedInAgain();
    const token = (await runBin(['token'], relogin)).stdout.trim();
    const proxy = await withdrawingProxy(1, 5);
    const out2 = path.join(home, 'withdrawn');
    const r2 = await runBin([...ARGS, '--out', out2], { ...relogin, METERDATA_ACCESS_TOKEN: token, METERDATA_BASE_URL: proxy.base });
    proxy.server.close();
    const left2 = leftovers(await folder(out2));
    const p2 = [
      r2.code !== 4 && `exit ${r2.code}, not 4`,
      !/withdrawn/i.test(r2.stderr) && `no "withdrawn" in: ${r2.stderr.trim().split('\n').slice(-2).join(' / ')}`,
      /^\s+at /m.test(r2.stderr) && 'a stack trace was printed',
      left2.length > 0 && `left [${left2.join(', ')}]`,
    ].filter(Boolean);
    if (p2.length) lost.push(`withdrawn: ${p2.join(', ')}`);
    else passed++;
    console.log(`[faults]   revoked → exit ${r1.code}: ${r1.stderr.trim().split('\n').slice(-2).join(' / ')}`);
    console.log(`[faults]   withdrawn "${proxy.name}" → exit ${r2.code}: ${r2.stderr.trim().split('\n').slice(-2).join(' / ')}`);

    report({ scenario: 'connection revoked mid-run; Property withdrawn mid-run', trials: 2, passed, lost });
    expect(lost).toEqual([]);
  }, 180_000);
});

/** Signs the same METERDATA_HOME in again to the same sandbox (a new connection). */
async function signedInAgain(): Promise<NodeJS.ProcessEnv> {
  await signInTo(sandbox, env);
  return env;
}
