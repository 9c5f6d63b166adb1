// What a token request did on the wire decides whether its refresh token may be spent: only a 4xx
// turned it away unused; every other answer that came after the request left is a lost answer, and
// a redirect is never followed (its Location could take the spent token to another server).
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { lostAfterSending, watched, type Wire } from '../../src/auth/token-wire.js';

const sentWith = (status: number): Wire => ({ sent: true, status });

describe('lostAfterSending', () => {
  it.each([101, 200, 201, 301, 302, 303, 307, 308, 500, 503, 600])('HTTP %i after the request left: lost', (status) => {
    expect(lostAfterSending(new Error('unexpected HTTP response status code'), sentWith(status))).toBe(true);
  });

  it.each([400, 401, 403, 429])('HTTP %i: refused unused, not lost', (status) => {
    expect(lostAfterSending(new Error('refused'), sentWith(status))).toBe(false);
  });

  it('a request that never left is never lost', () => {
    expect(lostAfterSending(new Error('x'), { sent: false, status: undefined })).toBe(false);
  });
});

describe('watched', () => {
  it('asks fetch not to follow a redirect, whatever the library asked, and sends nothing again after a 3xx', async () => {
    const config = new oidc.Configuration({ issuer: 'https://auth.example', token_endpoint: 'https://auth.example/oauth/token' }, 'client');
    const asked: unknown[] = [];
    config[oidc.customFetch] = async (_url, options) => {
      asked.push(options.redirect);
      return new Response(null, { status: 302, headers: { location: 'https://sso.example/login' } });
    };
    const result = await watched(config, async (wire) => {
      const fetchOf = config[oidc.customFetch]!;
      const options = { method: 'POST', headers: {}, body: undefined, redirect: 'follow' } as unknown as oidc.CustomFetchOptions;
      const first = await fetchOf('https://auth.example/oauth/token', options);
      const again = await fetchOf('https://auth.example/oauth/token', options);
      return { wire: { ...wire }, statuses: [first.status, again.status] };
    });
    expect(asked).toEqual(['manual']);
    expect(result).toEqual({ wire: { sent: true, status: 302 }, statuses: [302, 302] });
  });
});
