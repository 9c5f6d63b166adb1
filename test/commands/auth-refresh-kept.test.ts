// Any failure after a 2xx refresh answer spends the refresh token we sent: building the record
// (here made to throw as `new Date` did for expires_in 1e13) or saving it. The record is marked
// (unless the store refuses that too: then the intent stays and tells the next run the same),
// the run ends with exit 3 "sign in again", and the token is never sent again: the sandbox's
// connection stays "connected" rather than being revoked by a re-sent, rotated token.
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { openStore, type CredentialStore, type StoredRecord } from '../../src/auth/credential-store/index.js';
import { Session } from '../../src/auth/session.js';
import { loadProfile } from '../../src/core/config.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy, setAccessExpiry } from '../helpers/signed-in.js';

const broken = vi.hoisted(() => ({ build: false }));
vi.mock('../../src/auth/token-exchange.js', async (original) => {
  const real = await original<typeof import('../../src/auth/token-exchange.js')>();
  return {
    ...real,
    recordFromTokens: (...args: Parameters<typeof real.recordFromTokens>) => {
      if (broken.build) throw new RangeError('Invalid time value');
      return real.recordFromTokens(...args);
    },
  };
});

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 }, 'md-kept-');
const { tokenPosts, stateOf } = at;

async function signedIn() {
  const { env, file, sid } = await at.signedIn();
  return { env, rec: setAccessExpiry(file), sid, stored: () => JSON.parse(readFileSync(file, 'utf8')) };
}

describe('a failure after the 2xx refresh answer', () => {
  it('building the record fails: exit 3 naming it, no stack, the record marked, nothing re-sent, the connection alive', async () => {
    const { env, rec, sid, stored } = await signedIn();
    const posts = tokenPosts();
    broken.build = true;
    const r = await runCli(['token'], { env }).finally(() => (broken.build = false));
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /answered the refresh of the access token \(HTTP 200\), but its answer cannot be used: the new tokens could not be kept \(Invalid time value\)/,
    );
    expect(r.stderr).toMatch(/will not send it again\. Run `meterdata login` to sign in again/);
    expect(r.stderr).not.toMatch(/unexpected failure|RangeError|\n\s+at /);
    expect(stored().refresh_token).toBe(rec.refresh_token);
    expect(stored().refresh_uncertain_since).toBeTruthy();
    expect(stored().refresh_intent).toBeUndefined();
    const next = await runCli(['token'], { env });
    expect(next.code).toBe(3);
    expect(tokenPosts()).toBe(posts + 1);
    expect(stateOf(sid)).toBe('connected');
  });

  it('the store refuses the new tokens but takes the mark: exit 3 AUTH_TOKENS_NOT_SAVED, the record marked, nothing re-sent', async () => {
    const { env, rec, sid, stored } = await signedIn();
    const profile = (await loadProfile(env, 'default'))!;
    const real = openStore('file', env);
    const refusingNew: CredentialStore = {
      ...real,
      kind: real.kind,
      describe: (p) => real.describe(p),
      read: (p) => real.read(p),
      remove: (p) => real.remove(p),
      write: async (p, next: StoredRecord) => {
        if (next.refresh_token !== rec.refresh_token) throw new Error('no space left on device');
        return real.write(p, next);
      },
    };
    const session = new Session(profile, refusingNew, (await real.read('default'))!, env);
    const posts = tokenPosts();
    const err = await session.fresh().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'AUTH_TOKENS_NOT_SAVED', exitCode: 3 });
    expect(stored().refresh_uncertain_since).toBeTruthy();
    expect(stored().refresh_intent).toBeUndefined();
    const next = await runCli(['token'], { env });
    expect(next.code).toBe(3);
    expect(next.stderr).toMatch(/was lost or could not be used/);
    expect(tokenPosts()).toBe(posts + 1);
    expect(stateOf(sid)).toBe('connected');
  });
});
