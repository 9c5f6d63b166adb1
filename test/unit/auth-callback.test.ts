// The loopback callback server, the checks on the authorization answer, and DPoP proofs.
import { createHash } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import http from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { checkCallback } from '../../src/auth/authorize.js';
import { dpopProof, generateDpopKey, importDpopKey } from '../../src/auth/dpop.js';
import { startCallbackServer } from '../../src/auth/loopback-callback.js';

const expected = { issuer: 'http://127.0.0.1:4000', state: 'st-123' };
const q = (o: Record<string, string>) => new URLSearchParams(o);

describe('checkCallback', () => {
  it('accepts the code only when iss and state both match', () => {
    expect(checkCallback(q({ code: 'c', iss: expected.issuer, state: 'st-123' }), expected, 'Run x again')).toEqual({ ok: true, code: 'c' });
  });
  it.each([
    [{ code: 'c', state: 'st-123' }, 'AUTH_ISSUER_MISMATCH'],
    [{ code: 'c', iss: 'http://evil.example', state: 'st-123' }, 'AUTH_ISSUER_MISMATCH'],
    [{ code: 'c', iss: expected.issuer, state: 'other' }, 'AUTH_STATE_MISMATCH'],
    [{ code: 'c', iss: expected.issuer }, 'AUTH_STATE_MISMATCH'],
    [{ error: 'access_denied', iss: expected.issuer, state: 'st-123' }, 'AUTH_ACCESS_DENIED'],
    [{ error: 'invalid_scope', iss: expected.issuer, state: 'st-123' }, 'AUTH_INVALID_SCOPE'],
    [{ error: 'server_error', iss: expected.issuer, state: 'st-123' }, 'AUTH_SERVER_ERROR'],
    [{ error: 'weird', iss: expected.issuer, state: 'st-123' }, 'AUTH_REDIRECT_ERROR'],
    [{ iss: expected.issuer, state: 'st-123' }, 'AUTH_NO_CODE'],
  ])('refuses %j with %s', (params, code) => {
    const v = checkCallback(q(params as Record<string, string>), expected, 'Run `meterdata login` again');
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.error.code).toBe(code);
      expect(v.error.hint).toMatch(/meterdata login|--scope/);
    }
  });
  it('maps exit codes: declined → 3, bad scope → 2, server trouble → 5', () => {
    const exit = (error: string) => {
      const v = checkCallback(q({ error, iss: expected.issuer, state: 'st-123' }), expected, 'r');
      return v.ok ? 0 : v.error.exitCode;
    };
    expect([exit('access_denied'), exit('invalid_scope'), exit('temporarily_unavailable')]).toEqual([3, 2, 5]);
  });
  it('checks state before the error, so a forged error redirect is named as such', () => {
    const v = checkCallback(q({ error: 'access_denied', iss: expected.issuer, state: 'forged' }), expected, 'r');
    expect(!v.ok && v.error.code).toBe('AUTH_STATE_MISMATCH');
  });
});

describe('loopback callback server', () => {
  it('listens on 127.0.0.1 only, 404s other paths, takes exactly one callback', async () => {
    const srv = await startCallbackServer((p) => ({ ok: p.get('code') === 'good', message: 'm', final: p.get('state') === 's' }));
    try {
      expect(srv.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const base = new URL(srv.redirectUri);
      expect((await fetch(new URL('/favicon.ico', base))).status).toBe(404);
      expect((await fetch(new URL('/callbackx?code=1', base))).status).toBe(404);
      // not this sign-in's answer: 400, and the wait goes on
      const forged = await fetch(`${srv.redirectUri}?code=evil&state=forged`);
      expect(forged.status).toBe(400);
      expect(await forged.text()).toMatch(/still waiting/);
      const first = await fetch(`${srv.redirectUri}?code=good&state=s`);
      expect(first.status).toBe(200);
      expect(await first.text()).toMatch(/return to the terminal/);
      expect((await srv.received).get('code')).toBe('good');
      expect((await fetch(`${srv.redirectUri}?code=again&state=s`)).status).toBe(409);
      // not reachable on another local address
      const other = await fetch(`http://127.0.0.2:${base.port}/callback`).then(
        (r) => r.status,
        () => 'refused',
      );
      expect(other).toBe('refused');
    } finally {
      await srv.close();
    }
  });

  it('no bindable port on 127.0.0.1 is a clear error (exit 5) naming the cause', async () => {
    const spy = vi.spyOn(http.Server.prototype, 'listen').mockImplementation(function (this: http.Server) {
      process.nextTick(() => this.emit('error', Object.assign(new Error('listen EADDRNOTAVAIL'), { code: 'EADDRNOTAVAIL' })));
      return this;
    });
    try {
      const err = await startCallbackServer(() => ({ ok: true, message: '', final: true })).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'AUTH_NO_LOOPBACK_PORT', exitCode: 5 });
      expect((err as Error).message).toMatch(/Cannot open a local port on 127\.0\.0\.1 .*EADDRNOTAVAIL/);
    } finally {
      spy.mockRestore();
    }
  });

  it('answers a refused callback of this sign-in (an error redirect) with a 400 page and ends the wait', async () => {
    const srv = await startCallbackServer(() => ({ ok: false, message: 'Access denied.', final: true }));
    try {
      const res = await fetch(`${srv.redirectUri}?error=access_denied`);
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/Access denied\..*return to the terminal/);
      expect((await srv.received).get('error')).toBe('access_denied');
    } finally {
      await srv.close();
    }
  });
});

describe('DPoP proofs', () => {
  it('carry htm, htu without query, iat, jti, ath and the public key, and verify with it', async () => {
    const { key, privateJwk } = await generateDpopKey();
    const again = await importDpopKey(privateJwk);
    expect(again.publicJwk).toEqual(key.publicJwk);
    const proof = await dpopProof(again, 'get', 'http://127.0.0.1:5/v1/units?limit=5#x', 'the-token', Date.UTC(2026, 10, 22));
    const header = decodeProtectedHeader(proof);
    expect(header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256' } });
    expect(header.jwk).not.toHaveProperty('d');
    const claims = decodeJwt(proof);
    expect(claims).toMatchObject({ htm: 'GET', htu: 'http://127.0.0.1:5/v1/units', iat: Date.UTC(2026, 10, 22) / 1000 });
    expect(claims.ath).toBe(createHash('sha256').update('the-token').digest('base64url'));
    expect(claims).not.toHaveProperty('nonce');
    await jwtVerify(proof, await importJWK(header.jwk!, 'ES256'));
    const second = decodeJwt(await dpopProof(again, 'GET', 'http://127.0.0.1:5/v1/units'));
    expect(second.jti).not.toBe(claims.jti);
  });
});
