// logout with a damaged record and with --local-only, and `status --all` with a broken profile.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configFile, loadProfile, setProfileFields } from '../../src/core/config.js';
import { InterruptedError } from '../../src/core/errors.js';
import { runCli } from '../helpers/run-cli.js';
import { sandboxBehindProxy, signedIn, storeFile } from '../helpers/signed-in.js';

const at = sandboxBehindProxy({ autoConsent: true, admin: true, clock: '2026-11-22', oauthRateLimitPerMinute: 0 }, 'md-logout-');

/** A fresh home (file store) whose `profile` signed in with `meterdata login --profile` at the sandbox itself. */
const signedInHome = (profile = 'default') => signedIn({ at: at.sb, login: [], profiles: [profile], credentialStore: 'file', homePrefix: 'md-logout-' });

const stateOf = (sid: string) => at.sb.admin.connections().find((c) => c.sid === sid)?.state;

describe('logout', () => {
  it('clears a damaged record: no revocation attempted, says so, record and facts gone', async () => {
    const { env } = await signedInHome();
    writeFileSync(storeFile(env), '{"refresh_tok', { mode: 0o600 });
    expect((await runCli(['status'], { env })).code).toBe(3);
    const out = await runCli(['logout'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/stored sign-in was damaged, so nothing could be revoked at the server/);
    expect(out.stderr).toMatch(/damaged record was deleted/);
    expect(existsSync(storeFile(env))).toBe(false);
    expect((await loadProfile(env, 'default'))!.tenant_id).toBeUndefined();
    const st = await runCli(['status'], { env });
    expect(st.code).toBe(3);
    expect(st.stdout).toMatch(/not signed in/);
  });

  it('stopped while another process holds config.json: the sign-out is done, the stop told as such (round 58 T3)', async () => {
    const { env } = await signedInHome();
    mkdirSync(`${configFile(env)}.lock`); // held, fresh: waited for up to 17 s
    const stop = new AbortController();
    setTimeout(() => stop.abort(new InterruptedError('Interrupted by SIGTERM.')), 300);
    const t0 = Date.now();
    const out = await runCli(['logout', '--local-only', '--lang', 'en'], { env, signal: stop.signal });
    expect([out.code, Date.now() - t0 < 3_000], out.stderr).toEqual([0, true]);
    expect(out.stderr).toMatch(/Stopped while waiting for config\.json: the connection's tenant and Properties are still noted there/);
    expect(out.stderr).not.toMatch(/could not be removed from config\.json: Interrupted/);
    expect(out.stderr).toMatch(/Signed out profile "default"/);
    expect(existsSync(storeFile(env))).toBe(false);
  });

  it('--local-only sends nothing to the server and deletes the record; plain logout revokes', async () => {
    const { env, sid } = await signedInHome();
    await setProfileFields(env, 'default', { auth_url: at.proxy.url });
    const seen = at.proxy.requests.length;
    const out = await runCli(['logout', '--local-only'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/not revoked at the server \(--local-only\)/);
    expect(at.proxy.requests.length).toBe(seen);
    expect(existsSync(storeFile(env))).toBe(false);
    expect(stateOf(sid)).toBe('connected');

    const { env: other, sid: sid2 } = await signedInHome();
    await setProfileFields(other, 'default', { auth_url: at.proxy.url });
    const revokes = at.proxy.count('POST', '/oauth/revoke');
    const out2 = await runCli(['logout'], { env: other });
    expect(out2.code, out2.stderr).toBe(0);
    expect(out2.stderr).toMatch(/revoked at the server/);
    expect(at.proxy.count('POST', '/oauth/revoke')).toBe(revokes + 1);
    expect(stateOf(sid2)).toBe('revoked');
  });
});

describe('status --all', () => {
  it('lists every profile; one broken profile makes the exit code 3', async () => {
    const good = await signedInHome('good');
    const { env } = good;
    const badSid = await good.signIn('bad');
    expect(await at.sb.admin.disconnect(badSid)).toBe(true);
    const text = await runCli(['status', '--all'], { env });
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/Profile "bad": signed in, NOT working/);
    expect(text.stdout).toMatch(/Profile "good": connected, working/);
    const json = await runCli(['status', '--all', '--json'], { env });
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ profile: 'bad', signed_in: true, working: false, problem: expect.objectContaining({ code: 'AUTH_CONNECTION_ENDED' }) }),
      expect.objectContaining({ profile: 'good', signed_in: true, working: true }),
    ]);
  });
});
