// A `locks` folder this user may not write (another user's, after a `sudo meterdata …`): a run that had to refresh
// waited 56 s, then said another meterdata process had been refreshing "for too long" (round 44 N5). Now it stops at
// once, naming the folder, the refusal and the chown that fixes it; nothing is sent, and the sign-in still works.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/bin.js';
import { runCli } from '../helpers/run-cli.js';
import { setAccessExpiry, signedIn, type SignedIn } from '../helpers/signed-in.js';

const asRoot = process.getuid?.() === 0;
if (!asRoot && process.env.CI !== 'true') console.warn('locks-denied: skipped, needs root to play another user with setpriv');
const USER = 1003;

let at: SignedIn;
beforeAll(async () => {
  at = await signedIn({ credentialStore: 'file', homePrefix: 'md-locks-denied-' });
}, 60_000);
afterAll(() => at?.close());

/** `dir` and everything in it given to `uid`. */
function chownAll(dir: string, uid: number): void {
  chownSync(dir, uid, uid);
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) chownAll(p, uid);
    else chownSync(p, uid, uid);
  }
}

describe.skipIf(!asRoot && process.env.CI !== 'true')('a locks folder this user may not write', () => {
  it('a refresh stops at once naming the lock, the refusal and the chown; nothing sent, the sign-in kept and working', async () => {
    const before = setAccessExpiry(at.file, -1000);
    chownAll(at.home, USER);
    const locks = path.join(at.home, 'state', 'locks');
    mkdirSync(locks, { recursive: true, mode: 0o755 });
    chownSync(locks, 0, 0); // root's, as a `sudo meterdata export` leaves it
    const r = await runBin(['token', '--lang', 'en'], { METERDATA_HOME: at.home, METERDATA_CREDENTIAL_STORE: 'file' }, { uid: USER, timeoutMs: 90_000 });
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.ms).toBeLessThan(15_000); // 56 s before, waiting for a holder that was never there
    expect(r.stderr).toContain(`A file meterdata keeps could not be written (${path.join(locks, 'default.refresh.lock')}): permission denied`);
    expect(r.stderr).toMatch(/chown -R/);
    expect(r.stderr).not.toMatch(/for too long|this is a bug|EACCES: /);
    // nothing was sent: the record is the one it was, and with the folder given back its refresh works
    expect(JSON.parse(readFileSync(at.file, 'utf8')).refresh_token).toBe(before.refresh_token);
    chownSync(locks, USER, USER);
    chownAll(at.home, 0);
    const again = await runCli(['token'], { env: at.env });
    expect(again.code, again.stderr).toBe(0);
  }, 120_000);

  // login refuses before any address is printed: no connection is opened to be ended again
  it.each([
    ['locks', 'round 45 F2'],
    ['credentials', 'round 46 L3'],
  ])(
    'login with a %s folder this user may not write (readable, root’s): refused before the browser step (%s)',
    async (name) => {
      chownAll(at.home, USER);
      const folder = path.join(at.home, 'state', name);
      mkdirSync(folder, { recursive: true });
      chownSync(folder, 0, 0);
      chmodSync(folder, 0o755);
      const connections = at.sandbox.admin.connections().length;
      const argv = ['login', '--no-browser', '--profile', 'other', '--auth-url', at.sandbox.url, '--lang', 'en'];
      const r = await runBin(argv, { METERDATA_HOME: at.home, METERDATA_CREDENTIAL_STORE: 'file' }, { uid: USER, timeoutMs: 60_000 });
      chownAll(at.home, 0);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`A file meterdata keeps could not be written (${folder}): permission denied`);
      expect(r.stderr).not.toMatch(/\/authorize\?|this is a bug/);
      expect(at.sandbox.admin.connections().length).toBe(connections);
    },
    90_000,
  );

  // Round 47 L-b: no `credentials` folder yet, in a `state` folder this user may not write: the record's write failed
  // only once the code was redeemed (the connection it opened was ended again, the user not told why)
  it('login with no credentials folder yet, inside a state folder this user may not write: refused before the browser step', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-state-denied-'));
    const state = path.join(home, 'state');
    mkdirSync(path.join(state, 'locks'), { recursive: true });
    chownAll(home, USER);
    chownSync(state, 0, 0);
    chmodSync(state, 0o755);
    const connections = at.sandbox.admin.connections().length;
    const argv = ['login', '--no-browser', '--auth-url', at.sandbox.url, '--lang', 'en'];
    const r = await runBin(argv, { METERDATA_HOME: home, METERDATA_CREDENTIAL_STORE: 'file' }, { uid: USER, timeoutMs: 60_000 });
    rmSync(home, { recursive: true, force: true });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`A file meterdata keeps could not be written (${state}): permission denied`);
    expect(r.stderr).not.toMatch(/\/authorize\?|this is a bug/);
    expect(at.sandbox.admin.connections().length).toBe(connections);
  }, 90_000);
});
