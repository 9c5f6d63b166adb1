// A refused DPoP proof whose answer gives no usable Date (a gateway dropped it): meterdata cannot
// tell whether this computer's clock is the cause, so it does not send the person to sign in again
// first (round 27; with the Date 5 minutes off it says to set the clock right: clock-skew.test.ts).
// With a usable Date that agrees, the clock is ruled out and signing in again is the advice.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy, setAccessExpiry } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 }, 'md-dpop-date-');

const refusedProof = (date: string) => async (r: { path: string }) =>
  r.path.startsWith('/v1/')
    ? { status: 401, headers: { 'www-authenticate': 'DPoP error="invalid_dpop_proof"', 'content-type': 'text/plain', date }, body: '' }
    : undefined;

describe('a DPoP proof refused by the API', () => {
  it('without a Date: check the clock first, sign in again only if it is right (English and German)', async () => {
    const { env } = await at.signedIn({}, ['--dpop']);
    at.proxy.intercept = refusedProof('');
    const r = await runCli(['status', '--json'], { env });
    const problem = JSON.parse(r.stdout).problem;
    expect(problem, r.stderr).toMatchObject({ code: 'AUTH_DPOP_REJECTED' });
    expect(problem.hint).toMatch(
      /did not give the service's time, so this computer's clock may be the cause: check it \(a proof counts for 60 seconds\) and run the same command again; only if the clock is right, sign in again with `meterdata login`/,
    );
    const de = await runCli(['status', '--lang', 'de'], { env });
    expect(de.stdout + de.stderr).toMatch(/Uhrzeit prüfen .* nur wenn die Uhr richtig geht, mit `meterdata login` neu anmelden/);
  });

  it('with a Date that agrees with this clock: the clock is ruled out, sign in again', async () => {
    const { env } = await at.signedIn({}, ['--dpop']);
    at.proxy.intercept = refusedProof(new Date().toUTCString());
    const r = await runCli(['status', '--json'], { env });
    const problem = JSON.parse(r.stdout).problem;
    expect(problem, r.stderr).toMatchObject({ code: 'AUTH_DPOP_REJECTED' });
    expect(problem.hint).toMatch(/clock agrees with the service's, so the proof was refused for another reason: run `meterdata login` to connect again/);
  });
});

describe('a DPoP proof refused by the token endpoint', () => {
  it('without a Date: exit 3, check the clock first; the record is kept and not marked (a 400 rotates nothing)', async () => {
    const { env, file } = await at.signedIn({}, ['--dpop']);
    const rec = setAccessExpiry(file);
    at.proxy.intercept = async (r) =>
      r.path === '/oauth/token' ? { status: 400, headers: { date: '' }, body: '{"error":"invalid_dpop_proof","error_description":"iat too far"}' } : undefined;
    const r = await runCli(['token'], { env });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/refused to refresh the access token: invalid_dpop_proof: iat too far/);
    expect(r.stderr).toMatch(/clock may be the cause: check it .* only if the clock is right, sign in again with `meterdata login`/s);
    expect(r.stderr).not.toMatch(/to connect again/);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    expect(kept.refresh_token).toBe(rec.refresh_token);
    expect(kept.refresh_uncertain_since).toBeUndefined();
  });
});
