// The built binary with the default credential store against a real Secret Service
// (private dbus-daemon + gnome-keyring): the token lives there and in no file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { hasKeyringTools, requireKeyringTools, startKeyringSession, type KeyringSession } from '../helpers/keyring-session.js';
import { assertBuilt, deliver, followToRedirect, spawnCli } from '../helpers/browser.js';

let sb: Sandbox;
let ks: KeyringSession | undefined;
beforeAll(async () => {
  assertBuilt();
  sb = await startSandbox({ autoConsent: true, admin: true, clock: '2026-11-22' });
  if (hasKeyringTools()) ks = await startKeyringSession();
});
afterAll(async () => {
  await sb?.close();
  await ks?.stop();
});

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(path.join(e.parentPath, e.name));
  return out;
}

describe('keychain store (Secret Service)', () => {
  it('login keeps the sign-in in the Secret Service only; token, status and logout use it', async (ctx) => {
    requireKeyringTools(ctx, 'the keychain path runs against a real Secret Service');
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-kc-'));
    const env = { ...ks!.env, METERDATA_HOME: home };
    const login = spawnCli(['login', '--no-browser', '--auth-url', sb.url], env);
    await deliver(await followToRedirect(await login.url));
    const r = await login.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Token stored in: system keychain \(Secret Service\)/);

    const account = `default@${home}`;
    const stored = JSON.parse(ks!.secretTool(['lookup', 'service', 'meterdata', 'username', account]));
    expect(stored.refresh_token).toBeTruthy();
    expect(ks!.secretTool(['search', '--all', 'service', 'meterdata'])).toContain(account);
    // not in any file under METERDATA_HOME (config, state, locks)
    for (const f of filesUnder(home)) {
      const text = readFileSync(f, 'utf8');
      expect(text.includes(stored.refresh_token), `refresh token found in ${f}`).toBe(false);
      expect(text.includes(stored.access_token), `access token found in ${f}`).toBe(false);
    }
    const tok = await spawnCli(['token'], env).done;
    expect(tok.code, tok.stderr).toBe(0);
    expect(tok.stdout.trim()).toBe(stored.access_token);
    const st = await spawnCli(['status'], env).done;
    expect(st.code, st.stderr).toBe(0);
    expect(st.stdout).toMatch(/Stored in: +system keychain \(Secret Service\)/);
    // the export signs in from its worker thread: the keychain is reached from there too
    const ex = await spawnCli(['export', '--year', '2025', '--out', path.join(home, 'out'), '--quiet'], env).done;
    expect(ex.code, ex.stderr).toBe(0);
    expect(readdirSync(path.join(home, 'out'))).toContain('billing.xlsx');

    const out = await spawnCli(['logout'], env).done;
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/revoked at the server; local sign-in deleted from the keychain/);
    expect(() => ks!.secretTool(['lookup', 'service', 'meterdata', 'username', account])).toThrow();
  }, 60_000);

  it('without a usable keychain, login refuses and names the file-store opt-in; a stored profile says "unavailable", not "not signed in"', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-nokc-'));
    const env = { METERDATA_HOME: home, HOME: home, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };
    const r = await spawnCli(['login', '--no-browser', '--auth-url', sb.url], env).done;
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/keychain is locked or unavailable/);
    expect(r.stderr).toMatch(/--credential-store file/);
    expect(r.stderr).toMatch(/METERDATA_CREDENTIAL_STORE=file/);
    expect(r.stderr).not.toMatch(/oauth\/authorize/); // refused before any browser step

    // with the opt-in it works and the record is a 0600 file
    const ok = spawnCli(['login', '--no-browser', '--auth-url', sb.url, '--credential-store', 'file'], env);
    await deliver(await followToRedirect(await ok.url));
    expect((await ok.done).code).toBe(0);
    const file = path.join(home, 'state', 'credentials', 'default.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const st = await spawnCli(['status'], env).done;
    expect(st.stdout).toMatch(/Stored in: +file .* \(mode 0600\)/);

    // a keychain profile whose keychain went away is "unavailable" (exit 5), not "not signed in"
    const kc = { ...env, METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-kc2-')) };
    execFileSync('mkdir', ['-p', path.join(kc.METERDATA_HOME, 'config')]);
    const cfg = JSON.parse(readFileSync(path.join(home, 'config', 'config.json'), 'utf8'));
    cfg.profiles.default.credential_store = 'keychain';
    (await import('node:fs')).writeFileSync(path.join(kc.METERDATA_HOME, 'config', 'config.json'), JSON.stringify(cfg));
    const tok = await spawnCli(['token'], kc).done;
    expect(tok.code).toBe(5);
    expect(tok.stderr).toMatch(/locked or unavailable/);
    expect(tok.stderr).not.toMatch(/not signed in/);
  }, 60_000);
});
