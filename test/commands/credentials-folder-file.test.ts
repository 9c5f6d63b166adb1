// The credentials folder of the file store made a plain file (a hand edit, a tool's mistake): login and logout ended
// in an ENOTDIR stack trace, "a bug" (round 44 N4). Now every command says which file is in the way and that moving
// it is the fix (exit 2), login before any address is printed, and the sign-in moved aside is left untouched.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { signedIn, type SignedIn } from '../helpers/signed-in.js';

let at: SignedIn;
const folder = () => path.join(at.home, 'state', 'credentials');
const aside = () => `${folder()}.aside`;
beforeAll(async () => {
  at = await signedIn({ credentialStore: 'file', homePrefix: 'md-credentials-file-' });
  renameSync(folder(), aside());
  writeFileSync(folder(), 'not a folder');
}, 60_000);
afterAll(() => at?.close());

const blocked = (profile: string) =>
  `meterdata cannot keep this profile's sign-in in ${path.join(folder(), `${profile}.json`)}: ${folder()} is a file, not a folder.`;

describe('the credentials folder a plain file', () => {
  it.each([
    ['login', ['login', '--no-browser', '--profile', 'other', '--auth-url', '<sandbox>'], 'other'],
    ['logout', ['logout'], 'default'],
    ['logout --local-only', ['logout', '--local-only'], 'default'],
    ['status', ['status'], 'default'],
    ['export', ['export', '--year', '2025', '--out', '<out>'], 'default'],
  ])(
    '%s: refused (exit 2, status 3) naming the file in the way and its move, no stack trace',
    async (_name, argv, profile) => {
      const args = argv.map((a) => (a === '<sandbox>' ? at.sandbox.url : a === '<out>' ? path.join(at.home, 'out') : a));
      const r = await runCli(args, { env: at.env });
      expect(r.code, r.stderr).toBe(args[0] === 'status' ? 3 : 2);
      // status tells it on stdout, as the profile's problem
      const said = r.stdout + r.stderr;
      expect(said).toContain(blocked(profile));
      expect(said).toContain(`Move or rename ${folder()}`);
      expect(said).not.toMatch(/ENOTDIR|this is a bug|\/authorize\?/);
      // the sign-in moved aside is not touched, the file in the way kept
      expect(readFileSync(folder(), 'utf8')).toBe('not a folder');
      expect(existsSync(path.join(aside(), 'default.json'))).toBe(true);
    },
    60_000,
  );
});
