// Rate limits of the authorization server (Limits section): per caller address and per
// authenticated client_id. Other caller addresses come from binding 127.0.0.x locally.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hashClientSecret } from '../../src/sandbox/clients.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { authorizeUrl, basic, erpClientId } from '../helpers/sandbox-oauth.js';

const LIMIT = 4;
const SECRET = 'limit-secret';
const clientA = erpClientId();
const clientB = erpClientId();
let sb: Sandbox;
let nextHost = 2;

interface Answer {
  status: number;
  headers: { get(h: string): string | null };
  body: Record<string, unknown>;
}

/** One plain HTTP request from a given local address (node:http honours localAddress). */
function send(localAddress: string, method: string, url: URL, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, localAddress, agent: false, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        let parsed: Record<string, unknown> = {};
        try {
          parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch {
          parsed = { raw: text };
        }
        const h = res.headers;
        resolve({ status: res.statusCode ?? 0, headers: { get: (n) => (h[n.toLowerCase()] as string | undefined) ?? null }, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A fresh caller address (127.0.0.N). */
function caller() {
  const addr = `127.0.0.${nextHost++}`;
  return {
    post: (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
      send(addr, 'POST', new URL(path, sb.url), { 'content-type': 'application/x-www-form-urlencoded', ...headers }, new URLSearchParams(form).toString()),
    get: (url: URL) => send(addr, 'GET', url, { accept: 'application/json' }),
  };
}

beforeAll(async () => {
  const reg = (id: string) => ({
    client_id: id,
    redirect_uris: ['http://127.0.0.1/callback'],
    token_endpoint_auth_method: 'client_secret_basic' as const,
    client_secret_sha256: hashClientSecret(SECRET),
  });
  sb = await startSandbox({ units: 3, clients: [reg(clientA), reg(clientB)], oauthRateLimitPerMinute: LIMIT });
});
afterAll(() => sb.close());

function expect429(r: Answer, body?: Record<string, unknown>) {
  expect(r.status).toBe(429);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  if (body) expect(body).toMatchObject({ type: expect.stringMatching(/#too-many-requests$/), status: 429, title: expect.any(String) });
}

describe.each([
  ['/oauth/token', { grant_type: 'refresh_token', refresh_token: 'unknown' }],
  ['/oauth/revoke', { token: 'unknown' }],
])('%s', (path, form) => {
  test(`${LIMIT}/min per authenticated client_id, counted across caller addresses`, async () => {
    sb.clock.advance(61_000);
    for (let i = 0; i < LIMIT; i++) {
      const r = await caller().post(path, form, basic(clientA, SECRET));
      expect(r.status).not.toBe(429);
    }
    const over = await caller().post(path, form, basic(clientA, SECRET));
    expect429(over, over.body);
    // Another client from a fresh address is not affected.
    expect((await caller().post(path, form, basic(clientB, SECRET))).status).not.toBe(429);
    sb.clock.advance(61_000);
    expect((await caller().post(path, form, basic(clientA, SECRET))).status).not.toBe(429);
  });

  test('failed client authentication does not count against the client', async () => {
    sb.clock.advance(61_000);
    for (let i = 0; i < LIMIT + 1; i++) expect((await caller().post(path, form, basic(clientB, 'wrong'))).status).toBe(401);
    expect((await caller().post(path, form, basic(clientB, SECRET))).status).not.toBe(429);
  });

  test(`${LIMIT}/min per caller address, whatever the client`, async () => {
    sb.clock.advance(61_000);
    const one = caller();
    for (let i = 0; i < LIMIT; i++) expect((await one.post(path, form, basic(i % 2 ? clientA : clientB, i < 2 ? 'wrong' : SECRET))).status).not.toBe(429);
    const over = await one.post(path, form, basic(clientB, SECRET));
    expect429(over, over.body);
    expect((await caller().post(path, form, basic(clientB, SECRET))).status).not.toBe(429);
  });
});

test(`/oauth/authorize: ${LIMIT}/min per caller address`, async () => {
  sb.clock.advance(61_000);
  const one = caller();
  const url = authorizeUrl(sb.url, { code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' });
  for (let i = 0; i < LIMIT; i++) expect((await one.get(url)).status).toBe(303);
  const over = await one.get(url);
  expect429(over, over.body);
  expect((await caller().get(url)).status).toBe(303);
  sb.clock.advance(61_000);
  expect((await one.get(url)).status).toBe(303);
});
