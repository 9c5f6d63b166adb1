// The Limits table with the sandbox's default numbers (no overrides): 300 /v1 requests per
// minute per connection, 60 /oauth/authorize requests per minute per caller address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { authorizeUrl, connect, pkce } from '../helpers/sandbox-oauth.js';

/** Runs `n` tasks with at most `width` in flight; results in task order. */
async function pool<T>(n: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await task(i);
      }
    }),
  );
  return out;
}

function expectTooMany(res: Response, body: any): void {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(body.type).toBe('https://developer.example/errors/#too-many-requests');
  const retry = res.headers.get('retry-after') ?? '';
  expect(retry).toMatch(/^\d+$/);
  expect(Number(retry)).toBeGreaterThanOrEqual(1);
  expect(Number(retry)).toBeLessThanOrEqual(60);
}

describe('default limits of startSandbox()', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb?.close());

  it('the 301st /v1 request of one connection within a minute is 429 with Retry-After; another connection is unaffected', async () => {
    const a = await connect(sb.url);
    const b = await connect(sb.url);
    const get = (t: string) => fetch(`${sb.apiBase}/whoami`, { headers: { authorization: `Bearer ${t}` } });
    const statuses = await pool(300, 16, async () => {
      const res = await get(a.access_token);
      await res.arrayBuffer();
      return res.status;
    });
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const over = await get(a.access_token);
    expectTooMany(over, await over.json());
    expect((await get(b.access_token)).status).toBe(200);
    expect(sb.log.toJSON().too_many_requests).toBe(1);
  });
});

describe('default /oauth/authorize limit', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ units: 3 });
  });
  afterAll(() => sb?.close());

  it('the 61st /oauth/authorize request from one address within a minute is 429 with Retry-After', async () => {
    const open = async () => {
      const { challenge } = pkce();
      const res = await fetch(authorizeUrl(sb.url, { code_challenge: challenge, code_challenge_method: 'S256' }), {
        redirect: 'manual',
        headers: { accept: 'text/html' },
      });
      return { res, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
    };
    const first = await pool(60, 8, async () => (await open()).res.status);
    expect(first.filter((s) => s === 429)).toEqual([]);
    const over = await open();
    expectTooMany(over.res, over.body);
  });
});
