// The pure parts of judging a token answer: its lifetime, a token type meterdata cannot send,
// and a DPoP proof refused while this clock is off the server's Date header.
import { describe, expect, it } from 'vitest';
import { lifetimeOf } from '../../src/auth/lifetime.js';
import { MAX_TOKEN_CHARS, unusableAnswer } from '../../src/auth/token-answer.js';
import { sentLifetime } from '../../src/auth/token-wire.js';
import { clockSkewError } from '../../src/core/clock-skew.js';

describe('lifetimeOf', () => {
  it.each([
    [undefined, 3600],
    [3600, 3600],
    [1e13, 86_400],
    [Number.MAX_VALUE, 86_400],
    [0.2, 1],
  ])('expires_in %s → %s s', (given, kept) => expect(lifetimeOf(given)).toBe(kept));

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY, '3600', null, true])('expires_in %s breaks the contract', (given) => {
    expect(lifetimeOf(given)).toEqual({ bad: String(given) });
  });
});

describe('unusableAnswer', () => {
  it('names a token type other than Bearer and DPoP, and a lifetime that is no positive number', () => {
    expect(unusableAnswer({ access_token: 'a', token_type: 'mac', expires_in: 3600 })).toMatch(/token of type "mac"/);
    expect(unusableAnswer({ access_token: 'a', token_type: 'bearer', expires_in: 0 })).toMatch(/lifetime \(expires_in\) is 0/);
    expect(unusableAnswer({ access_token: 'a', token_type: 'DPoP', expires_in: 60 })).toBeUndefined();
  });

  it('names a token or scope longer than the 64 KiB kept (the store reads a record back up to 1 MiB)', () => {
    const long = 'x'.repeat(MAX_TOKEN_CHARS + 1);
    expect(unusableAnswer({ access_token: long, token_type: 'bearer' })).toMatch(/its access token is 65 KiB long, more than the 64 KiB/);
    expect(unusableAnswer({ access_token: 'a', refresh_token: long, token_type: 'bearer' })).toMatch(/its refresh token is 65 KiB/);
    expect(unusableAnswer({ access_token: 'a', scope: long, token_type: 'bearer' })).toMatch(/its scope is 65 KiB/);
    expect(unusableAnswer({ access_token: 'x'.repeat(MAX_TOKEN_CHARS), token_type: 'bearer' })).toBeUndefined();
  });

  it('names an access token an Authorization header cannot carry; a JWT and other visible ASCII pass', () => {
    for (const token of ['a\nb', 'a b', 'a\u0000b', 'tök', 'a\u2028b']) {
      expect(unusableAnswer({ access_token: token, token_type: 'bearer' }), JSON.stringify(token)).toMatch(/an Authorization header cannot carry/);
    }
    expect(unusableAnswer({ access_token: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln-_', token_type: 'dpop' })).toBeUndefined();
    expect(unusableAnswer({ access_token: 'opaque|42:x~+/=', token_type: 'bearer' })).toBeUndefined();
  });

  it('reads the body openid-client refused from its error, a lifetime given as text as openid-client does', () => {
    const refused = (body: Record<string, unknown>) =>
      new Error('invalid response encountered', { cause: new Error('"expires_in" must be a number', { cause: { body } }) });
    expect(unusableAnswer(refused({ token_type: 'bearer', expires_in: 'soon' }))).toMatch(/is "soon", not a positive number/);
    expect(unusableAnswer(refused({ token_type: 'mac' }))).toMatch(/"mac"/);
    expect(unusableAnswer(refused({ token_type: 'bearer', expires_in: '3600' }))).toBeUndefined();
    expect(unusableAnswer(new Error('socket hang up'))).toBeUndefined();
  });

  it('a lifetime as text is named as sent where openid-client already read it as a number ("0x10" as 0); only a plain decimal text counts', () => {
    const tokens = { access_token: 'a', token_type: 'bearer', expires_in: 0 };
    expect(unusableAnswer(tokens, { lifetime: '0x10' })).toMatch(/lifetime \(expires_in\) is "0x10", not a positive number/);
    expect(unusableAnswer({ ...tokens, expires_in: 16 }, { lifetime: '16s' })).toMatch(/is "16s"/);
    expect(unusableAnswer({ ...tokens, expires_in: 3600 }, { lifetime: '3600' })).toBeUndefined();
    expect(unusableAnswer({ ...tokens, expires_in: 3600 }, { lifetime: undefined })).toBeUndefined();
  });

  it('a numeric lifetime is named by its characters as sent: 1e400 (read as Infinity, shown "null" before) and -0 (shown "0" before)', () => {
    const tokens = { access_token: 'a', refresh_token: 'r', token_type: 'Bearer' };
    for (const text of ['1e400', '-0', '-1e400', '0.0']) {
      const body = `{"access_token":"a","refresh_token":"r","token_type":"Bearer","expires_in":${text}}`;
      const wire = sentLifetime(body);
      expect(wire.lifetimeText, text).toBe(text);
      expect(unusableAnswer({ ...tokens, expires_in: JSON.parse(body).expires_in }, wire), text).toContain(
        `lifetime (expires_in) is ${text}, not a positive number`,
      );
    }
    expect(sentLifetime('{"expires_in":"0x10"}')).toEqual({ lifetime: '0x10' });
    expect(sentLifetime('{"expires_in":5,"expires_in":1e400}').lifetimeText).toBe('1e400');
    expect(sentLifetime('not json')).toEqual({});
  });
});

describe('clockSkewError', () => {
  const now = Date.parse('2026-11-27T08:00:00Z');
  const date = (offsetS: number) => new Date(now + offsetS * 1000).toUTCString();
  it('none without a Date header, with an unreadable one, or within the 60 s a proof counts for', () => {
    expect(clockSkewError(null, now)).toBeUndefined();
    expect(clockSkewError('yesterday-ish', now)).toBeUndefined();
    expect(clockSkewError(date(-50), now)).toBeUndefined();
    expect(clockSkewError(date(50), now)).toBeUndefined();
  });

  it('says how far and which way, in the unit a person reads, and to set the clock right', () => {
    expect(clockSkewError(date(-90), now)).toMatchObject({ code: 'AUTH_CLOCK_SKEW', exitCode: 5 });
    expect(clockSkewError(date(-90), now)!.message).toMatch(/clock is 90 seconds ahead of the service's/);
    expect(clockSkewError(date(600), now)!.message).toMatch(/clock is 10 minutes behind the service's/);
    expect(clockSkewError(date(-3 * 3600), now)!.message).toMatch(/clock is 3 hours ahead/);
    expect(clockSkewError(date(-90), now)!.hint).toMatch(/Set the computer's clock right/);
    expect(clockSkewError(date(-90), now)!.hint).not.toMatch(/login/);
  });
});
