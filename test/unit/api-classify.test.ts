// The request path's decision step is a pure function: every answer a service, a proxy or a
// hostile server can give, as a table of (status, headers, body) → what the transport does.
import { describe, expect, it } from 'vitest';
import { classify, type Attempt, type Outcome, type Verdict } from '../../src/api/classify.js';

const DEV = 'https://developer.example/errors/';
const problem = (status: number, code: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: `${DEV}#${code}`, title: code, status, trace_id: `t-${status}`, ...extra });
const answer = (status: number, text: string, headers: Record<string, string> = {}): Outcome => ({ status, headers, text });
const fresh: Attempt = {
  endpoint: 'GET /v1/usage-units/x',
  path: '/v1/usage-units/x',
  userInput: false,
  refreshed: false,
  freshProofTried: false,
  requestTimeoutMs: 30_000,
};

/** The verdict reduced to what the table states: the act, and the error's code or the retry's reason. */
function shape(v: Verdict): string {
  switch (v.act) {
    case 'done':
      return `done ${JSON.stringify(v.json)}`;
    case 'retry':
    case 'pause':
      return `${v.act} ${v.transient.reason}`;
    case 'fail':
      return `fail ${(v.error as { code?: string }).code}`;
    case 'rethrow':
      return `rethrow ${(v.error as Error).message}`;
    default:
      return v.act;
  }
}

const timeout = Object.assign(new Error('timed out'), { name: 'TimeoutError' });
const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

const table: [string, Outcome, Partial<Attempt>, string][] = [
  ['a 200 with JSON', answer(200, '{"a":1}'), {}, 'done {"a":1}'],
  ['a 200 cut off mid-body', answer(200, '{"a":'), {}, 'retry truncated or invalid JSON body'],
  ['a 429 problem', answer(429, problem(429, 'too-many-requests'), { 'retry-after': '3' }), {}, 'pause HTTP 429 too-many-requests'],
  ['a 429 from a proxy (no problem)', answer(429, '<html>slow down</html>'), {}, 'pause HTTP 429 too-many-requests'],
  ['a 503 carrying too-many-requests', answer(503, problem(503, 'too-many-requests')), {}, 'pause HTTP 503 too-many-requests'],
  ['a 503 problem', answer(503, problem(503, 'service-unavailable')), {}, 'retry HTTP 503 service-unavailable'],
  ['a 502 from a proxy', answer(502, '<html>bad gateway</html>'), {}, 'retry HTTP 502'],
  ['a 500 with an unknown fragment', answer(500, problem(500, 'disk-on-fire')), {}, 'retry HTTP 500 disk-on-fire'],
  ['a 401 invalid-token, first time', answer(401, problem(401, 'invalid-token'), { 'www-authenticate': 'Bearer error="invalid_token"' }), {}, 'refresh'],
  ['a 401 invalid-token after a refresh', answer(401, problem(401, 'invalid-token')), { refreshed: true }, 'fail AUTH_REJECTED'],
  ['a 401 without a problem (proxy)', answer(401, ''), {}, 'refresh'],
  [
    'a rejected DPoP proof, first time',
    answer(401, problem(401, 'invalid-token'), { 'www-authenticate': 'DPoP error="invalid_dpop_proof"' }),
    {},
    'fresh-proof',
  ],
  [
    'a rejected DPoP proof again',
    answer(401, problem(401, 'invalid-token'), { 'www-authenticate': 'DPoP error="invalid_dpop_proof"' }),
    { freshProofTried: true },
    'fail AUTH_DPOP_REJECTED',
  ],
  [
    'a rejected DPoP proof, this clock 5 minutes ahead of the answer’s Date',
    answer(401, problem(401, 'invalid-token'), { 'www-authenticate': 'DPoP error="invalid_dpop_proof"', date: new Date(Date.now() - 300_000).toUTCString() }),
    {},
    'fail AUTH_CLOCK_SKEW',
  ],
  [
    'a rejected DPoP proof, the clocks 30 s apart',
    answer(401, problem(401, 'invalid-token'), { 'www-authenticate': 'DPoP error="invalid_dpop_proof"', date: new Date(Date.now() - 30_000).toUTCString() }),
    {},
    'fresh-proof',
  ],
  // round 27: a fragment that contradicts its status costs no refresh (a rotation) and no "sign in again"
  ['a 429 carrying invalid-token', answer(429, problem(429, 'invalid-token'), { 'retry-after': '1' }), {}, 'pause HTTP 429 too-many-requests'],
  ['a 503 carrying invalid-token', answer(503, problem(503, 'invalid-token')), {}, 'retry HTTP 503 invalid-token'],
  // round 29: only the contract's invalid-request on a 400 says meterdata sent a bad request
  ['a 400 carrying invalid-token', answer(400, problem(400, 'invalid-token')), {}, 'fail API_UNEXPECTED_STATUS'],
  // round 29: a gateway's own rate limit (a fragment the contract does not know) is waited out, not exit 1
  ['a 429 with an unknown fragment', answer(429, problem(429, 'throttled'), { 'retry-after': '1' }), {}, 'pause HTTP 429 too-many-requests'],
  [
    'a 400 from a gateway (about:blank, no fragment)',
    answer(400, '{"type":"about:blank","title":"Bad Request","status":400}'),
    {},
    'fail API_UNEXPECTED_STATUS',
  ],
  ['a 400 from a proxy (no problem)', answer(400, '<html>bad request</html>'), {}, 'fail API_UNEXPECTED_STATUS'],
  ['a 401 with another fragment', answer(401, problem(401, 'account-locked')), {}, 'fail API_UNEXPECTED_STATUS'],
  [
    'a 403 insufficient-scope',
    answer(403, problem(403, 'insufficient-scope'), { 'www-authenticate': 'Bearer scope="read:readings"' }),
    {},
    'fail AUTH_INSUFFICIENT_SCOPE',
  ],
  ['a 404 resource-not-found', answer(404, problem(404, 'resource-not-found')), {}, 'fail NOT_FOUND'],
  ['a 400 on the tool’s own request', answer(400, problem(400, 'invalid-request')), {}, 'fail API_INVALID_REQUEST'],
  ['a 400 on the user’s range', answer(400, problem(400, 'invalid-request')), { userInput: true }, 'fail API_INVALID_RANGE'],
  ['a 418', answer(418, 'teapot'), {}, 'fail API_UNEXPECTED_STATUS'],
  ['a 200-less redirect', answer(302, ''), {}, 'fail API_REDIRECTED'],
  ['no answer in time', { failed: timeout }, {}, 'retry no answer within 30 s'],
  ['a dropped connection', { failed: reset }, {}, 'retry connection failed (ECONNRESET)'],
  ['a bug on the way (not the network)', { failed: new TypeError('x is not a function') }, {}, 'rethrow x is not a function'],
];

describe('classify: answer → action', () => {
  it.each(table)('%s', (_name, outcome, attempt, expected) => {
    expect(shape(classify(outcome, { ...fresh, ...attempt }))).toBe(expected);
  });

  it('is pure: the same answer gives the same verdict, and nothing it is given changes', () => {
    const outcome = answer(401, problem(401, 'invalid-token'));
    const attempt = { ...fresh };
    const first = shape(classify(outcome, attempt));
    expect(shape(classify(outcome, attempt))).toBe(first);
    expect(attempt).toEqual(fresh);
  });

  it('names the id of a 404 and keeps the trace id', () => {
    const v = classify(answer(404, problem(404, 'resource-not-found')), fresh);
    expect(v.act).toBe('fail');
    const e = (v as { error: Error & { traceId?: string } }).error;
    expect(e.message).toContain(' x ');
    expect(e.traceId).toBe('t-404');
  });
});
