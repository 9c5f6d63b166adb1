import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { failSummary } from '../helpers/summary-fails.js';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { EMPTY_PROPERTY_NAME } from '../../src/sandbox/data/generic.js';
import { TENANT_NAMES } from '../../src/sandbox/data/index.js';
import { folderBytes, liveSid, signIn, TENANT_CLIENTS, tenantClients } from '../helpers/portfolio.js';
import { signedIn } from '../helpers/signed-in.js';
import { findEnglish } from '../helpers/catalogues.js';
import { runCli } from '../helpers/run-cli.js';

// The sandbox's limit is off: the client paces itself at this rate (the files do not depend on it).
const FAST = ['--rate-limit', '3000'];
let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({
    units: 40,
    admin: true,
    rateLimitPerMinute: 0,
    oauthRateLimitPerMinute: 0,
    clients: tenantClients(),
    profiles: [
      { name: 'nord', tenant: 0 },
      { name: 'sued', tenant: 1 },
    ],
    homePrefix: 'md-portfolio-',
    env: { SOURCE_DATE_EPOCH: '1795000000' },
  }));
});
afterAll(async () => sandbox?.close());

const lines = (text: string) => text.trim().split('\n').filter(Boolean);

describe('sandbox: several landlords, one auto-consent client each', () => {
  it('each test client signs in to its own tenant; an unknown auto_consent_tenant stops the sandbox from starting', async () => {
    const who = async (profile: string) =>
      JSON.parse((await runCli(['status', '--profile', profile, '--json'], { env, cwd: home })).stdout) as { tenant_name?: string };
    expect((await who('nord')).tenant_name).toBe(TENANT_NAMES[0]);
    expect((await who('sued')).tenant_name).toBe(TENANT_NAMES[1]);
    const bad = [{ ...tenantClients()[0]!, auto_consent_tenant: 'Niemand GmbH' }];
    const port = Number(new URL((await startSandbox({ port: 0 }).then(async (sb) => (await sb.close(), sb))).url).port);
    await expect(startSandbox({ port, autoConsent: true, clients: bad })).rejects.toThrow(/auto_consent_tenant Niemand GmbH is no tenant of this sandbox/);
    const file = path.join(home, 'bad-clients.json');
    await writeFile(file, JSON.stringify({ clients: bad }));
    const cmd = await runCli(['sandbox', '--port', '0', '--auto-consent', '--clients', file], { cwd: home });
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toMatch(/^meterdata: client erp_a+1: auto_consent_tenant Niemand GmbH is no tenant of this sandbox/);
    // the refused start left the port free
    const again = await startSandbox({ port });
    await again.close();
  });
});

describe('portfolio flags are checked before any request', () => {
  const cases: [string[], RegExp][] = [
    [['--all-profiles', '--profile', 'nord'], /--all-profiles cannot be combined with --profile/],
    [['--profiles', 'nord,sued', '--profile', 'nord'], /--profiles cannot be combined with --profile/],
    [['--all-profiles', '--profiles', 'nord'], /--all-profiles cannot be combined with --profiles/],
    [['--profiles', ' , '], /--profiles: the list is empty/],
    [['--profiles', 'nord,../x'], /not a valid profile name/],
    [['--profiles', 'nord,nord.'], /"nord\." is not a valid profile name/],
    [['--profiles', 'nord', '--year', '25'], /--year/],
  ];
  for (const [argv, msg] of cases) {
    it(`rejects ${argv.join(' ')}`, async () => {
      const before = sandbox.log.total;
      const r = await runCli(['export', '--year', '2025', ...FAST, ...argv], { env, cwd: home });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(sandbox.log.total).toBe(before);
    });
  }

  it('refuses METERDATA_ACCESS_TOKEN, which stands for one connection', async () => {
    const r = await runCli(['export', '--year', '2025', ...FAST, '--all-profiles'], { env: { ...env, METERDATA_ACCESS_TOKEN: 'x' }, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/METERDATA_ACCESS_TOKEN/);
  });

  it('--all-profiles without any signed-in profile exits 3', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'md-portfolio-none-'));
    const r = await runCli(['export', '--year', '2025', ...FAST, '--all-profiles'], { env: { METERDATA_HOME: empty }, cwd: empty });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no profile is signed in/);
  });
});

describe('portfolio export against one sandbox with two landlords', () => {
  it('writes <out>/<profile>/ byte for byte as single exports, a summary CSV, one JSON object and one log line per profile', async () => {
    const out = path.join(home, 'all');
    const r = await runCli(['export', '--year', '2025', ...FAST, '--all-profiles', '--out', out, '--json'], { env, cwd: home });
    expect(r.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['nord', 'portfolio-summary.csv', 'sued']);
    for (const p of ['nord', 'sued']) {
      const single = path.join(home, `single-${p}`);
      const s = await runCli(['export', '--year', '2025', ...FAST, '--profile', p, '--out', single, '--quiet'], { env, cwd: home });
      expect(s.code).toBe(0);
      expect(await folderBytes(path.join(out, p))).toEqual(await folderBytes(single));
    }
    const objects = lines(r.stdout).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objects.map((o) => [o.profile, o.outcome, o.exit_code, o.tenant])).toEqual([
      ['nord', 'exported', 0, TENANT_NAMES[0]],
      ['sued', 'exported', 0, TENANT_NAMES[1]],
    ]);
    // not a terminal: Property lines and a summary line, each naming its profile
    expect(r.stderr).toMatch(/^nord: property 1\/\d+ "/m);
    expect(r.stderr).toMatch(/^sued: property 1\/\d+ "/m);
    expect(r.stderr).toMatch(
      new RegExp(`^profile sued: exported in [\\d.]+s: "${TENANT_NAMES[1]}", \\d+ Propert(y|ies), \\d+ units?, flags \\d+ not billed`, 'm'),
    );
    expect(r.stderr).toMatch(/^portfolio: 2 of 2 profiles exported; summary in /m);
    const csv = (await readFile(path.join(out, 'portfolio-summary.csv'), 'utf8')).split('\r\n');
    expect(csv[0]).toBe(
      'profile,outcome,exit_code,error_code,tenant,properties,units,flags_not_billed,flags_review,flags_info,requests,seconds,out,message,hint',
    );
    expect(csv[1]).toMatch(/^nord,exported,0,,Hausverwaltung Nordlicht GmbH,\d+,\d+,/);
    expect(csv[2]).toMatch(/^sued,exported,0,,Immobilien Süd KG,/);
  });

  it('a failing profile does not stop the others; the exit status is the worst one; a re-run continues only the unfinished', async () => {
    await signIn(sandbox, env, 'spaet', 0);
    await sandbox.admin.disconnect(liveSid(sandbox, 0, 1)); // spaet's connection: the landlord disconnected it
    const out = path.join(home, 'partial');
    const argv = (profiles: string) => ['export', '--year', '2025', ...FAST, '--profiles', profiles, '--out', out, '--json'];
    const first = await runCli(argv('nord,spaet,ghost,sued'), { env, cwd: home });
    expect(first.code).toBe(3);
    const objs = lines(first.stdout).map(
      (l) => JSON.parse(l) as { profile: string; outcome: string; exit_code: number; error?: { code: string; hint?: string } },
    );
    expect(objs.map((o) => [o.profile, o.outcome, o.exit_code])).toEqual([
      ['nord', 'exported', 0],
      ['spaet', 'failed', 3],
      ['ghost', 'failed', 3],
      ['sued', 'exported', 0],
    ]);
    expect(objs[2]!.error!.hint).toMatch(/meterdata login/);
    expect(first.stderr).toMatch(/^profile spaet: failed \(exit 3, /m);
    expect(first.stderr).toMatch(/failed: spaet, ghost; do what each one's line above says, then run the same command again to continue them/);
    expect((await readdir(out)).sort()).toEqual(['nord', 'portfolio-summary.csv', 'sued']);
    // --quiet: nothing but the failures
    const quiet = await runCli([...argv('nord,ghost'), '--quiet'], { env, cwd: home });
    expect(quiet.code).toBe(3);
    expect(lines(quiet.stderr)).toEqual([expect.stringMatching(/^profile ghost: failed \(exit 3, AUTH_NOT_SIGNED_IN\): .*meterdata login/)]);

    await signIn(sandbox, env, 'spaet', 0);
    const nordBefore = await folderBytes(path.join(out, 'nord'));
    const again = await runCli(argv('nord,spaet,sued'), { env, cwd: home });
    expect(again.code).toBe(0);
    const second = lines(again.stdout).map((l) => JSON.parse(l) as { profile: string; outcome: string; requests?: number });
    expect(second.map((o) => [o.profile, o.outcome])).toEqual([
      ['nord', 'kept'],
      ['spaet', 'exported'],
      ['sued', 'kept'],
    ]);
    expect(await folderBytes(path.join(out, 'nord'))).toEqual(nordBefore);
    // every profile finished: the next run exports them all again (a nightly job refreshes)
    const third = await runCli(argv('nord,spaet,sued'), { env, cwd: home });
    expect(third.code).toBe(0);
    expect(lines(third.stdout).map((l) => (JSON.parse(l) as { outcome: string }).outcome)).toEqual(['exported', 'exported', 'exported']);
  });

  it('with room for a single Property across all profiles every export still finishes, with the same bytes', async () => {
    const out = path.join(home, 'tight');
    const r = await runCli(['export', '--year', '2025', ...FAST, '--profiles', 'nord,sued', '--out', out, '--quiet'], {
      env: { ...env, METERDATA_PORTFOLIO_PROPERTIES: '1' },
      cwd: home,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(''); // --quiet
    for (const p of ['nord', 'sued']) expect(await folderBytes(path.join(out, p))).toEqual(await folderBytes(path.join(home, `single-${p}`)));
  });

  it('--strict: exit 6 for the profile with findings, 0 for the other, 6 for the run', async () => {
    const out = path.join(home, 'strict');
    // Billing's findings alone (--no-plausibility, which the portfolio passes on to every profile): the review would find something to look at for both landlords.
    const r = await runCli(
      ['export', '--year', '2025', ...FAST, '--profiles', 'nord,sued', '--out', out, '--json', '--strict', '--quiet', '--no-plausibility'],
      { env, cwd: home },
    );
    expect(r.code).toBe(6);
    const objs = lines(r.stdout).map((l) => JSON.parse(l) as { outcome: string; exit_code: number; error?: { code: string } });
    expect(objs.map((o) => [o.outcome, o.exit_code, o.error?.code])).toEqual([
      ['exported', 6, 'EXPORT_FLAGS_STRICT'],
      ['exported', 0, undefined], // this landlord's data has no finding to review
    ]);
  });

  it('Ctrl-C stops every profile: exit 130, each profile interrupted, the summary written, a re-run continues', async () => {
    const out = path.join(home, 'stopped');
    const ctrl = new AbortController();
    // at the default 300/min each export takes seconds: the abort lands in the middle
    setTimeout(() => ctrl.abort(new Error('interrupted by SIGINT')), 700);
    const r = await runCli(['export', '--year', '2025', '--profiles', 'nord,sued', '--out', out, '--json'], { env, cwd: home, signal: ctrl.signal });
    expect(r.code).toBe(130);
    expect(lines(r.stdout).map((l) => (JSON.parse(l) as { exit_code: number }).exit_code)).toEqual([130, 130]);
    expect((await readFile(path.join(out, 'portfolio-summary.csv'), 'utf8')).split('\r\n')[1]).toMatch(/^nord,failed,130,EXPORT_INTERRUPTED,/);
    // stopped while still signing in: an interruption too, not a bug
    const early = new AbortController();
    early.abort(new Error('interrupted by SIGTERM'));
    const before = await runCli(['export', '--year', '2025', '--profiles', 'nord,sued', '--out', out, '--json'], { env, cwd: home, signal: early.signal });
    expect(before.code).toBe(130);
    expect(lines(before.stdout).map((l) => (JSON.parse(l) as { error: { code: string } }).error.code)).toEqual(['EXPORT_INTERRUPTED', 'EXPORT_INTERRUPTED']);
    const again = await runCli(['export', '--year', '2025', ...FAST, '--profiles', 'nord,sued', '--out', out, '--quiet'], { env, cwd: home });
    expect(again.code).toBe(0);
    for (const p of ['nord', 'sued']) expect(await folderBytes(path.join(out, p))).toEqual(await folderBytes(path.join(home, `single-${p}`)));
  });

  it('a profile whose files are complete stays exported when its note for a re-run cannot be saved', async () => {
    const blocker = path.join(home, 'state', 'portfolio');
    await rm(blocker, { recursive: true, force: true });
    await writeFile(blocker, 'not a folder');
    try {
      const r = await runCli(['export', '--year', '2025', ...FAST, '--profiles', 'nord', '--out', path.join(home, 'unnoted'), '--json'], { env, cwd: home });
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { outcome: string }).outcome).toBe('exported');
      expect(r.stderr).toMatch(/^nord: could not note that this profile is finished/m);
    } finally {
      await rm(blocker, { force: true });
    }
  });

  it("a summary that cannot be written: each profile's object is printed first, then the failure, exit 1", async () => {
    const out = path.join(home, 'summary-blocked');
    failSummary.once = true; // a full disk when the summary is written
    const r = await runCli(['export', '--year', '2025', ...FAST, '--profiles', 'nord', '--out', out, '--json'], { env, cwd: home });
    expect(r.code).toBe(1);
    const [profile, failure, ...more] = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { outcome: string; exit_code: number });
    expect([profile!.outcome, failure!.outcome, failure!.exit_code, more.length]).toEqual(['exported', 'failed', 1, 0]);
    expect(r.stderr).toMatch(/^meterdata: /m);
    expect(r.stderr).not.toMatch(/summary in/);
  });

  it('a summary that cannot be written keeps the record of the finished profiles: the re-run keeps them and only writes the summary', async () => {
    const out = path.join(home, 'summary-blocked-again');
    failSummary.once = true;
    const first = await runCli(['export', '--year', '2025', ...FAST, '--profiles', 'nord', '--out', out, '--json'], { env, cwd: home });
    expect(first.code).toBe(1);
    const before = sandbox.log.total;
    const again = await runCli(['export', '--year', '2025', ...FAST, '--profiles', 'nord', '--out', out, '--json'], { env, cwd: home });
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as { outcome: string }).outcome).toBe('kept');
    expect(sandbox.log.total - before).toBeLessThan(5); // no second walk of the profile
    expect(await readFile(path.join(out, 'portfolio-summary.csv'), 'utf8')).toMatch(/\r\nnord,kept,0,/);
  });

  it('refuses an --out folder that holds a single-profile export', async () => {
    const r = await runCli(['export', '--year', '2025', ...FAST, '--all-profiles', '--out', path.join(home, 'single-nord')], { env, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds a single-profile export/);
  });

  // Round 32 F11: a summary write killed between its open and its rename left its temporary file in the root for good.
  it('removes a dead run’s temporary summary file from the root, and keeps a live one’s', async () => {
    const out = path.join(home, 'summary-leftover');
    await mkdir(out, { recursive: true });
    const dead = path.join(out, '.portfolio-summary.csv.99999999.1795886000000.abcdefgh.tmp');
    const live = path.join(out, `.portfolio-summary.csv.${process.ppid}.1795886000000.ijklmnop.tmp`);
    await writeFile(dead, 'x');
    await writeFile(live, 'x');
    const r = await runCli(['export', '--year', '2025', ...FAST, '--profiles', 'nord', '--out', out], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  // Round 32 F15: a file where the state's folder of finished-profile notes belongs: both profiles exported, and the
  // warning told to delete a file inside that file. No note can be below a file: nothing to say at the end.
  it('a file at the state’s folder of finished-profile notes: exported, no warning naming a file inside it', async () => {
    const notes = path.join(env.METERDATA_HOME!, 'state', 'portfolio');
    const aside = `${notes}.aside`;
    await rename(notes, aside).catch(() => undefined);
    await writeFile(notes, 'x');
    try {
      const r = await runCli(['export', '--year', '2025', ...FAST, '--profiles', 'nord', '--out', path.join(home, 'notes-file')], { env, cwd: home });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/delete \S*portfolio\/\w+\.json/);
    } finally {
      await rm(notes, { force: true });
      await rename(aside, notes).catch(() => undefined);
    }
  });

  // Round 32 F7: a single export killed before its manifest's rename (its files under final names) was not seen.
  it('refuses an --out folder that holds a single export killed before its manifest was renamed', async () => {
    const out = path.join(home, 'single-killed');
    await cp(path.join(home, 'single-nord'), out, { recursive: true });
    await rename(path.join(out, 'meterdata-manifest.json'), path.join(out, '.meterdata-manifest.json.partial'));
    const r = await runCli(['export', '--year', '2025', ...FAST, '--all-profiles', '--out', out], { env, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds a single-profile export \(.*(billing|\.meterdata-manifest)/);
  });

  it('20 profiles whose access tokens all expired refresh at the same moment without stalling, each with its own record', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `r${String(i + 1).padStart(2, '0')}`);
    const rhome = await mkdtemp(path.join(os.tmpdir(), 'md-portfolio-20-'));
    const renv = { METERDATA_HOME: rhome, SOURCE_DATE_EPOCH: '1795000000' };
    for (const n of names) await signIn(sandbox, renv, n, 1);
    const file = (n: string) => path.join(rhome, 'state', 'credentials', `${n}.json`);
    const before = new Map<string, { access_token: string; refresh_token: string }>();
    for (const n of names) {
      const rec = JSON.parse(await readFile(file(n), 'utf8'));
      rec.access_expires_at = new Date(Date.now() - 1000).toISOString();
      await writeFile(file(n), JSON.stringify(rec), { mode: 0o600 });
      before.set(n, rec);
    }
    // the Property without units: a few requests per profile, so the run is all sign-in
    const empty = sandbox.dataset.propertiesOf(sandbox.dataset.tenants()[1]!.id).find((p) => p.name === EMPTY_PROPERTY_NAME)!.id;
    const r = await runCli(
      ['export', '--year', '2025', ...FAST, '--profiles', names.join(','), '--property', empty, '--out', path.join(rhome, 'out'), '--json', '--format', 'csv'],
      { env: renv, cwd: rhome },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).map((l) => (JSON.parse(l) as { outcome: string }).outcome)).toEqual(names.map(() => 'exported'));
    for (const n of names) {
      const now = JSON.parse(await readFile(file(n), 'utf8'));
      expect(now.access_token).not.toBe(before.get(n)!.access_token);
      expect(now.refresh_token).not.toBe(before.get(n)!.refresh_token);
    }
    expect(sandbox.admin.connections().filter((c) => c.client_id === TENANT_CLIENTS[1] && c.state === 'revoked')).toEqual([]);
  }, 60_000);
});

describe('the portfolio export in German (--lang de)', () => {
  const de = ['--lang', 'de'];
  const cases: [string, string[], NodeJS.ProcessEnv, number, RegExp][] = [
    [
      'both lists',
      ['--all-profiles', '--profiles', 'nord'],
      {},
      2,
      /--all-profiles und --profiles können nicht zusammen angegeben werden\..*Geben Sie --all-profiles für alle angemeldeten Profile an/s,
    ],
    [
      '--profile too',
      ['--profiles', 'nord', '--profile', 'nord'],
      {},
      2,
      /--profiles und --profile können nicht zusammen angegeben werden\..*Lassen Sie --profile weg/s,
    ],
    ['an empty list', ['--profiles', ' , '], {}, 2, /--profiles: Die Liste ist leer\./],
    // round 26: nord was exported first, and NORD refused when its turn came
    [
      'two names that differ only in case',
      ['--profiles', 'nord,NORD'],
      {},
      2,
      /--profiles nennt nord und NORD, die sich nur in der Groß- und Kleinschreibung unterscheiden.*Bitte jedes Profil einmal nennen/s,
    ],
    [
      'the summary file as a profile',
      ['--profiles', 'portfolio-summary.csv'],
      {},
      2,
      /Das Profil "portfolio-summary\.csv" trägt den Namen der Übersichtsdatei.*Exportieren Sie es einzeln mit --profile/s,
    ],
    // round 27: a folder of these names in the root read as a single run's manifest or a month's letters
    [
      'the manifest’s name as a profile',
      ['--profiles', 'nord,meterdata-manifest.json'],
      {},
      2,
      /Das Profil "meterdata-manifest\.json" trägt einen Namen, den meterdata eigenen Dateien und Ordnern gibt/,
    ],
    ['a month as a profile', ['--profiles', 'nord,2025-11'], {}, 2, /Das Profil "2025-11" trägt einen Namen, den meterdata eigenen Dateien und Ordnern gibt/],
    [
      'the summary file in capitals as a profile (one name on a disk that ignores case)',
      ['--profiles', 'nord,Portfolio-Summary.csv'],
      {},
      2,
      /Das Profil "Portfolio-Summary\.csv" trägt den Namen der Übersichtsdatei/,
    ],
    ['a static token', ['--all-profiles'], { METERDATA_ACCESS_TOKEN: 'x' }, 2, /METERDATA_ACCESS_TOKEN ist gesetzt.*Entfernen Sie die Variable/s],
    [
      'a bad cap',
      ['--all-profiles'],
      { METERDATA_PORTFOLIO_PROPERTIES: '0' },
      2,
      /METERDATA_PORTFOLIO_PROPERTIES=0 ist keine Anzahl von Liegenschaften zwischen 1 und 4096\..*Setzen Sie den Wert z\. B\. auf 32/s,
    ],
  ];
  for (const [what, argv, extra, code, msg] of cases) {
    it(`refuses ${what} in German, without an English phrase, before any request`, async () => {
      const requests = sandbox.log.total;
      const r = await runCli(['export', '--year', '2025', ...FAST, ...de, ...argv], { env: { ...env, ...extra }, cwd: home });
      expect(r.code).toBe(code);
      expect(sandbox.log.total).toBe(requests);
      expect(r.stderr).toMatch(msg);
      expect(await findEnglish(r.stderr)).toEqual([]);
    });
  }

  it('no signed-in profile, and an --out holding a single export, are told in German too', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'md-portfolio-none-de-'));
    const none = await runCli(['export', '--year', '2025', ...FAST, '--all-profiles'], { env: { METERDATA_HOME: empty, LANG: 'de_DE.UTF-8' }, cwd: empty });
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/--all-profiles: Es ist kein Profil angemeldet\..*meterdata login --profile <name>/s);
    expect(await findEnglish(none.stderr)).toEqual([]);
    const single = path.join(home, 'single-de');
    expect((await runCli(['export', '--year', '2025', ...FAST, '--profile', 'nord', '--out', single, '--quiet'], { env, cwd: home })).code).toBe(0);
    const r = await runCli(['export', '--year', '2025', ...FAST, ...de, '--all-profiles', '--out', single], { env, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Der Zielordner --out .* enthält den Export eines einzelnen Profils.*Wählen Sie einen anderen Zielordner/s);
    expect(await findEnglish(r.stderr)).toEqual([]);
  });

  it("the run's last line and the --strict finding of a profile are German", async () => {
    const out = path.join(home, 'deutsch');
    const r = await runCli(['export', '--year', '2025', ...FAST, ...de, '--profiles', 'nord,sued', '--out', out, '--json', '--strict'], { env, cwd: home });
    expect(r.code).toBe(6);
    const last = lines(r.stderr).at(-1)!;
    expect(last).toMatch(/^Portfolio: 2 von 2 Profilen exportiert; Übersicht in .*portfolio-summary\.csv$/);
    expect(await findEnglish(last)).toEqual([]);
    const nord = JSON.parse(lines(r.stdout)[0]!) as { error: { code: string; message: string; hint: string } };
    expect(nord.error.code).toBe('EXPORT_FLAGS_STRICT');
    expect(nord.error.message).toMatch(/^--strict: \d+ Hinweise? (muss|müssen) geprüft werden; die Dateien wurden geschrieben\.$/);
    expect(nord.error.hint).toMatch(/^Details: .* im Zielordner /);
    expect(await findEnglish(`${nord.error.message} ${nord.error.hint}`)).toEqual([]);
  });
});
