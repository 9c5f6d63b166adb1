// Transient failures of a refresh never wipe or damage the stored sign-in; a refresh whose
// answer was lost after it may have reached the server is never sent again.
import { readFileSync } from 'node:fs';
import { getGlobalDispatcher, MockAgent, setGlobalDispatcher, type Dispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/run-cli.js';
import { setAccessExpiry, signedIn as signedInFixture } from '../helpers/signed-in.js';

let sb: Sandbox;
let original: Dispatcher;
beforeAll(async () => {
  sb = await startSandbox({ autoConsent: true, admin: true, clock: '2026-11-22' });
  original = getGlobalDispatcher();
});
afterEach(() => setGlobalDispatcher(original));
afterAll(async () => sb?.close());

async function signedIn() {
  const { env, file } = await signedInFixture({ at: sb, login: [], credentialStore: 'file', homePrefix: 'md-transient-' });
  return { env, file, rec: setAccessExpiry(file) };
}

/** Token endpoint answers through a mock; everything else reaches the sandbox. */
function tokenEndpoint(reply: (i: ReturnType<ReturnType<MockAgent['get']>['intercept']>) => void) {
  const agent = new MockAgent();
  agent.enableNetConnect(/127\.0\.0\.1/);
  reply(agent.get(sb.url).intercept({ path: '/oauth/token', method: 'POST' }));
  setGlobalDispatcher(agent);
}

describe('transient refresh failures keep the stored record', () => {
  it.each([
    // retried after Retry-After (bounded, see auth-refresh-safety.test.ts); a 429 that persists ends here
    [
      '429 that persists',
      (i: Parameters<Parameters<typeof tokenEndpoint>[0]>[0]) =>
        i.reply(429, { error: 'too_many_requests' }, { headers: { 'content-type': 'application/json', 'retry-after': '1' } }).persist(),
    ],
    [
      'connection refused',
      (i: Parameters<Parameters<typeof tokenEndpoint>[0]>[0]) => i.replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    ],
  ])('%s: exit 5, record unchanged, the next run refreshes normally', async (_name, reply) => {
    const { env, file, rec } = await signedIn();
    tokenEndpoint(reply);
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/sign-in server/);
    expect(r.stderr).not.toContain(rec.refresh_token);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(rec);
    setGlobalDispatcher(original);
    const again = await runCli(['token'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).not.toBe(rec.access_token);
  });

  it('a lost answer (connection dropped after sending): exit 3 "sign in again", the token is marked and never resent', async () => {
    const { env, file, rec } = await signedIn();
    tokenEndpoint((i) => i.replyWithError(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })));
    const r = await runCli(['token'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/answer of the sign-in server was lost/);
    expect(r.stderr).toMatch(/will not send it again\. Run `meterdata login` to sign in again/);
    const marked = JSON.parse(readFileSync(file, 'utf8'));
    expect(marked.refresh_token).toBe(rec.refresh_token);
    expect(marked.refresh_uncertain_since).toBeTruthy();
    setGlobalDispatcher(original);
    const next = await runCli(['token'], { env });
    expect(next.code).toBe(3);
    expect(next.stderr).toMatch(/was lost or could not be used/);
    expect(next.stderr).toMatch(/meterdata login/);
    // the connection was not put at risk: nothing presented the token again
    expect(sb.admin.connections().filter((c) => c.state === 'revoked')).toHaveLength(0);
  });
});
