// The request path against a hostile server (issues 14 and 15): odd Retry-After values,
// odd 401s, odd 2xx and 5xx answers. What each one leads to, and that none turns into a
// retry at once into the rate limit or into an unbounded loop.
import { describe, expect, it } from 'vitest';
import { classify, type Attempt, type Outcome } from '../../src/api/classify.js';
import { retryAfterMs } from '../../src/api/problems.js';
import { problem } from '../helpers/fake-api-server.js';
import { failure, rig } from '../helpers/api-fixtures.js';
import { aWhoAmI } from '../helpers/builders.js';

const fresh: Attempt = { endpoint: 'GET /v1/whoami', path: '/v1/whoami', userInput: false, refreshed: false, freshProofTried: false, requestTimeoutMs: 30_000 };
const answer = (status: number, text: string, headers: Record<string, string> = {}): Outcome => ({ status, headers, text });

describe('Retry-After: only whole seconds or an HTTP date are read', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it.each([
    ['3', 3000],
    [' 2 ', 2000],
    ['0', 0],
    ['Mon, 23 Nov 2026 12:00:05 GMT', 5000],
    ['Monday, 23-Nov-26 12:00:05 GMT', 5000],
    ['Mon Nov 23 12:00:05 2026', 5000],
    ['Mon, 23 Nov 2026 11:00:00 GMT', 0],
  ])('%j is %d ms', (value, ms) => {
    expect(retryAfterMs(value, now)).toBe(ms);
  });

  // Date.parse reads these as days of 2001, so they were a wait of 0: a retry at once into the limit.
  it.each(['-1', '-5', '1.5', '7s', 'soon', '1e3', '0x10', ''])('%j is unreadable (the caller backs off)', (value) => {
    expect(retryAfterMs(value, now)).toBeUndefined();
  });

  it('a 429 with Retry-After: -1 waits a backoff step, not 0 ms', async () => {
    const { api, client, events } = await rig({ retryBaseMs: 40, retryMaxMs: 40 });
    api.route('/v1/whoami', { json: aWhoAmI() });
    api.inject('/v1/whoami', problem(429, 'too-many-requests', { headers: { 'retry-after': '-1' } }));
    expect((await client.whoami()).tenant_name).toBe('Hausverwaltung Test');
    const waits = events.filter((e) => e.type === 'rate-limited').map((e) => (e as { waitMs: number }).waitMs);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(20);
    const [first, second] = api.hits('/v1/whoami');
    expect(second!.at - first!.doneAt!).toBeGreaterThanOrEqual(15);
  });
});

describe('odd answers: what classify decides', () => {
  it.each<[string, Outcome, Partial<Attempt>, string]>([
    ['a 429 without a Problem and without Retry-After: pause (the transport backs off)', answer(429, '<html>slow down</html>'), {}, 'pause:undefined'],
    ['a 503 proxy page in HTML: retry', answer(503, '<html><body>Service Unavailable</body></html>', { 'content-type': 'text/html' }), {}, 'retry'],
    ['a 200 with an empty body: retry (bounded by the attempts)', answer(200, ''), {}, 'retry'],
    ['a 204: retry, never an empty result taken as data', answer(204, ''), {}, 'retry'],
    [
      'a 301 redirect: not followed, a base URL to check (API_REDIRECTED)',
      answer(301, '', { location: 'https://elsewhere.example/v1/whoami' }),
      {},
      'fail:API_REDIRECTED',
    ],
    // The contract issues no DPoP nonces: such a 401 is an ordinary rejection, refreshed once.
    ['a 401 asking for a DPoP nonce: refresh once', answer(401, '', { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': 'n1' }), {}, 'refresh'],
    [
      'the same after the refresh: the sign-in was rejected',
      answer(401, '', { 'www-authenticate': 'DPoP error="use_dpop_nonce"' }),
      { refreshed: true },
      'fail:AUTH_REJECTED',
    ],
    [
      'a bad proof after a fresh proof: rejected, no refresh',
      answer(401, '', { 'www-authenticate': 'DPoP error="invalid_dpop_proof"' }),
      { freshProofTried: true },
      'fail:AUTH_DPOP_REJECTED',
    ],
  ])('%s', (_name, outcome, attempt, expected) => {
    const v = classify(outcome, { ...fresh, ...attempt });
    const got = v.act === 'fail' ? `fail:${(v.error as { code?: string }).code}` : v.act === 'pause' ? `pause:${v.retryAfter}` : v.act;
    expect(got).toBe(expected);
  });

  it('a 401 loop on every request ends after one refresh, with few requests', async () => {
    const { api, client, creds } = await rig();
    api.route('/v1/whoami', problem(401, 'invalid-token', { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } }));
    const e = await failure(client.whoami());
    expect(e.exitCode).toBe(3);
    expect(api.hits('/v1/whoami')).toHaveLength(2);
    expect(creds.refreshes).toBe(1);
  });
});
