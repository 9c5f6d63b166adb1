// The credentials folder of the file store made a plain file (a hand edit, a tool's mistake): login and logout ended
// in an ENOTDIR stack trace, "a bug" (round 44 N4). Now every command says which file is in the way and that moving
// it is the fix (exit 2), login before any address is printed, and the sign-in moved aside is left untouched.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
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

// Round 45 F3: a credentials folder that is a link leading nowhere (an unmounted volume) failed login after the
// sign-in with a stack trace, and other commands said "not signed in"; one leading round in a circle failed every
// command with a stack trace. Round 45 F2: a locks folder that is a file was met only after the sign-in.
describe('the credentials or locks folder a link to nowhere, a loop, or a file', () => {
  const cases = [
    [
      'credentials a link to nowhere',
      'credentials',
      (p: string) => symlinkSync(path.join(path.dirname(p), 'unmounted', 'creds'), p),
      'a link that leads nowhere',
    ],
    ['credentials a link to itself', 'credentials', (p: string) => symlinkSync('credentials', p), 'a link that leads nowhere'],
    ['locks a file', 'locks', (p: string) => writeFileSync(p, 'x'), 'a file, not a folder'],
    ['locks a link to nowhere', 'locks', (p: string) => symlinkSync(path.join(path.dirname(p), 'gone'), p), 'a link that leads nowhere'],
  ] as const;
  it.each(cases)('%s: login refused before any address is printed (exit 2), naming it and its move', async (_name, dir, make, words) => {
    const env = { METERDATA_HOME: mkdtempSync(path.join(os.tmpdir(), 'md-credentials-link-')), METERDATA_CREDENTIAL_STORE: 'file' };
    const place = path.join(env.METERDATA_HOME, 'state', dir);
    mkdirSync(path.dirname(place), { recursive: true });
    make(place);
    const connections = at.sandbox.admin.connections().length;
    const r = await runCli(['login', '--no-browser', '--profile', 'other', '--auth-url', at.sandbox.url], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${place} is ${words}`);
    expect(r.stderr).toContain(`Move or rename ${place}`);
    expect(r.stderr).not.toMatch(/ENOENT|ELOOP|this is a bug|\/authorize\?/);
    expect(at.sandbox.admin.connections().length).toBe(connections);
  });

  it.each([
    ['a link to nowhere', (p: string) => symlinkSync(path.join(path.dirname(p), 'unmounted'), p)],
    ['a link to itself', (p: string) => symlinkSync('credentials', p)],
  ])('credentials %s: status, token and logout say so (exit 2, status 3), no stack trace', async (_name, make) => {
    const own = await signedIn({ at: at.sandbox, credentialStore: 'file', homePrefix: 'md-credentials-link-' });
    const place = path.join(own.home, 'state', 'credentials');
    renameSync(place, `${place}.aside`);
    make(place);
    for (const argv of [['status'], ['token'], ['logout', '--local-only']]) {
      const r = await runCli(argv, { env: own.env });
      const said = r.stdout + r.stderr;
      expect(r.code, said).toBe(argv[0] === 'status' ? 3 : 2);
      expect(said).toContain(`${place} is a link that leads nowhere`);
      expect(said).not.toMatch(/ENOENT|ELOOP|this is a bug/);
    }
  });
});

// Round 46 M2: METERDATA_HOME a loop of two links failed every command with a stack trace from the look for a broken link.
describe('METERDATA_HOME a loop of two links', () => {
  it.each([['status'], ['token'], ['logout'], ['login', '--no-browser', '--auth-url', '<sandbox>']])(
    '%s: one line naming it (exit 2), no stack trace',
    async (...argv) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'md-home-loop-'));
      const home = path.join(dir, 'a');
      symlinkSync(path.join(dir, 'b'), home);
      symlinkSync(home, path.join(dir, 'b'));
      const r = await runCli(
        argv.map((a) => (a === '<sandbox>' ? at.sandbox.url : a)),
        { env: { METERDATA_HOME: home, METERDATA_CREDENTIAL_STORE: 'file' } },
      );
      const said = r.stdout + r.stderr;
      expect(r.code, said).toBe(2);
      expect(said).toContain(`${home} is a link that leads nowhere (or round in a circle)`);
      expect(said).not.toMatch(/ELOOP|this is a bug|\/authorize\?/);
    },
  );
});
