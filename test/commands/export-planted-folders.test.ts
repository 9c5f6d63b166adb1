// Folders planted in a shared --out under names meterdata tidies or locks with: each made every run fail with
// EISDIR, "unexpected failure (this is a bug)" (round 26). A folder named like a leftover is not one of ours and
// stays; a folder where the folder lock goes is a damaged lock, refused (exit 2) and never removed.
import { existsSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dirs } from '../../src/core/paths.js';
import { outLockFile } from '../../src/export/folder/locks.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedInNord('md-planted-folders-'));
});
afterAll(async () => sandbox?.close());

const exportRun = (out: string) => ['export', '--year', '2025', '--format', 'csv', '--rate-limit', '3000', '--profile', 'nord', '--out', out, '--json'];
const uviRun = (out: string) => ['uvi', '--month', '2025-11', '--rate-limit', '3000', '--profile', 'nord', '--out', out, '--json'];

describe('a folder named like a leftover in --out', () => {
  it("under the very name of the export's temporary file: refused before any request (EXPORT_OUT_IN_USE, exit 2), the folder stays", async () => {
    const out = path.join(home, 'partial-of-ours');
    await mkdir(path.join(out, '.billing.csv.partial', 'kept'), { recursive: true });
    const requests = sandbox.log.total;
    const r = await runCli(exportRun(out), { env, cwd: home });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/holds a folder named \.billing\.csv\.partial/);
    expect(r.stderr).not.toMatch(/this is a bug|EISDIR/);
    expect(sandbox.log.total).toBe(requests);
    expect(existsSync(path.join(out, '.billing.csv.partial', 'kept'))).toBe(true);
  }, 120_000);

  it.each(['.notes.partial', '..letter-x.pdf.partial.1.2.abc.tmp', '.meterdata-lock.999999.0123456789abcdef.abcd1234.tmp'])(
    '%s: the export runs (exit 0) and the folder stays',
    async (name) => {
      const out = path.join(home, `leftover-${name.replace(/\W+/g, '_')}`);
      await mkdir(path.join(out, name, 'kept'), { recursive: true });
      const r = await runCli(exportRun(out), { env, cwd: home });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/this is a bug|EISDIR/);
      expect(existsSync(path.join(out, name, 'kept'))).toBe(true);
    },
    120_000,
  );

  // Tidied without following: a link is removed as the link it is (open 'w' would write through it), its target kept.
  it('a link named like a leftover is removed, never followed: its target stays as it was', async () => {
    const out = path.join(home, 'leftover-link');
    const target = path.join(home, 'leftover-link-target.txt');
    await mkdir(out, { recursive: true });
    writeFileSync(target, 'mine');
    symlinkSync(target, path.join(out, '.billing.csv.partial'));
    writeFileSync(path.join(out, '.old.partial'), 'left by a killed run');
    const r = await runCli(exportRun(out), { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('mine');
    expect(readdirSync(out).filter((n) => n.endsWith('.partial'))).toEqual([]);
  }, 120_000);

  it('the same in a uvi month folder', async () => {
    const out = path.join(home, 'leftover-uvi');
    await mkdir(path.join(out, '2025-11', '.x.partial'), { recursive: true });
    const r = await runCli(uviRun(out), { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(out, '2025-11', '.x.partial'))).toBe(true);
  }, 120_000);
});

describe("a folder where the --out folder's lock goes", () => {
  it('an hour old: refused as a damaged lock (EXPORT_OUT_BUSY, exit 2) before the walk, never removed, no "bug"', async () => {
    const out = path.join(home, 'lock-folder');
    const lock = path.join(out, '.meterdata-lock');
    await mkdir(path.join(lock, 'kept'), { recursive: true });
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(lock, hourAgo, hourAgo);
    const requests = sandbox.log.total;
    const r = await runCli(exportRun(out), { env, cwd: home });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(/this is a bug|EISDIR/);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ exit_code: 2, error: { code: 'EXPORT_OUT_BUSY' } });
    expect(sandbox.log.total - requests).toBeLessThanOrEqual(1); // the sign-in's /whoami comes before the folder's lock
    expect(existsSync(path.join(lock, 'kept'))).toBe(true);
  }, 120_000);

  // Told as the folder it is, with the fix: "another run is writing … wait for it" sent the user after a run that does not exist.
  it.each([
    ['inside --out', (out: string) => Promise.resolve(path.join(out, '.meterdata-lock'))],
    ["in the state folder (that --out's out-<hash>.lock)", (out: string) => outLockFile(dirs(env).state, out)],
  ] as [string, (out: string) => Promise<string>][])(
    '%s: one line naming the folder and its removal, no run said to be writing',
    async (name, at) => {
      const out = path.join(home, `lock-folder-${name.replace(/\W+/g, '_')}`);
      await mkdir(out, { recursive: true });
      const lock = await at(out);
      await mkdir(path.join(lock, 'kept'), { recursive: true });
      const hourAgo = new Date(Date.now() - 3600_000);
      utimesSync(lock, hourAgo, hourAgo);
      const r = await runCli(
        exportRun(out).filter((a) => a !== '--json'),
        { env, cwd: home },
      );
      expect(r.code, r.stderr).toBe(2);
      const lines = r.stderr.split('\n').filter((l) => l.startsWith('meterdata:'));
      expect(lines).toEqual([
        `meterdata: ${lock} is a folder, where meterdata keeps a lock file; it is not meterdata's, and meterdata removes no folder it did not make.`,
      ]);
      expect(r.stderr).toContain(`Remove the folder ${lock}`);
      expect(r.stderr).not.toMatch(/is writing|this is a bug|EISDIR|\n\s+at /);
      expect(existsSync(path.join(lock, 'kept'))).toBe(true);
    },
    120_000,
  );
});

describe('a portfolio root holding a folder named portfolio-summary.csv', () => {
  it.each([
    ['an export portfolio', 'summary-folder', ['export', '--year', '2025', '--format', 'csv']],
    ['a uvi portfolio', 'summary-folder-uvi', ['uvi', '--month', '2025-11']],
  ])(
    '%s: refused before any profile runs (EXPORT_OUT_IN_USE, exit 2), not "a bug" after every profile',
    async (_what, name, command) => {
      const out = path.join(home, name);
      await mkdir(path.join(out, 'portfolio-summary.csv', 'kept'), { recursive: true });
      const requests = sandbox.log.total;
      const r = await runCli([...command, '--rate-limit', '3000', '--profiles', 'nord', '--out', out], { env, cwd: home });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/holds a folder named portfolio-summary\.csv/);
      expect(r.stderr).not.toMatch(/this is a bug|EISDIR/);
      expect(sandbox.log.total).toBe(requests);
      expect(existsSync(path.join(out, 'nord'))).toBe(false);
    },
    120_000,
  );
});

// A link planted where meterdata keeps a folder of its own sent the billing data and the letters elsewhere, and
// removed the ".partial" files there as leftovers (round 26).
describe('a symbolic link where meterdata keeps a folder of its own', () => {
  it.each([
    ["a portfolio's profile folder", (out: string) => path.join(out, 'nord'), ['export', '--year', '2025', '--format', 'csv', '--profiles', 'nord']],
    ["a uvi month's folder", (out: string) => path.join(out, '2025-11'), ['uvi', '--month', '2025-11', '--profile', 'nord']],
    ["a uvi portfolio's profile folder", (out: string) => path.join(out, 'nord'), ['uvi', '--month', '2025-11', '--profiles', 'nord']],
    ["a uvi portfolio's month folder", (out: string) => path.join(out, 'nord', '2025-11'), ['uvi', '--month', '2025-11', '--profiles', 'nord']],
  ] as [string, (out: string) => string, string[]][])(
    '%s: refused before any request (exit 2), nothing written through it',
    async (name, at, argv) => {
      const out = path.join(home, `link-${name.replace(/\W+/g, '_')}`);
      const victim = path.join(home, `victim-${name.replace(/\W+/g, '_')}`);
      await mkdir(victim, { recursive: true });
      writeFileSync(path.join(victim, '.draft.partial'), 'mine');
      await mkdir(out, { recursive: true });
      await mkdir(path.dirname(at(out)), { recursive: true });
      symlinkSync(victim, at(out));
      const requests = sandbox.log.total;
      const r = await runCli([...argv, '--rate-limit', '3000', '--out', out], { env, cwd: home });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/is a symbolic link, where meterdata keeps a folder of its own/);
      expect(sandbox.log.total - requests).toBeLessThanOrEqual(1);
      expect(readdirSync(victim)).toEqual(['.draft.partial']);
    },
    120_000,
  );

  // Round 29: a file there was "--out … is a file, not a folder" with the hint to choose another --out, which was fine
  it.each([
    ["a portfolio's profile folder", (out: string) => path.join(out, 'nord'), ['export', '--year', '2025', '--format', 'csv', '--profiles', 'nord']],
    ["a uvi month's folder", (out: string) => path.join(out, '2025-11'), ['uvi', '--month', '2025-11', '--profile', 'nord', '--json']],
  ] as [string, (out: string) => string, string[]][])(
    'a file at %s: named as a file where meterdata keeps a folder, hint to move it (exit 2)',
    async (name, at, argv) => {
      const out = path.join(home, `file-${name.replace(/\W+/g, '_')}`);
      await mkdir(out, { recursive: true });
      writeFileSync(at(out), 'mine');
      const r = await runCli([...argv, '--rate-limit', '3000', '--out', out], { env, cwd: home });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${at(out)} is a file (or a pipe or device), where meterdata keeps a folder of its own; it is not meterdata's.`);
      expect(r.stderr).toMatch(/Move or rename that file/);
      expect(r.stderr).not.toMatch(/Choose a folder/);
    },
    120_000,
  );

  it("the user's own --out may be a link: the export writes into its target", async () => {
    const target = path.join(home, 'own-target');
    await mkdir(target, { recursive: true });
    const link = path.join(home, 'own-link');
    symlinkSync(target, link);
    const r = await runCli(exportRun(link), { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(path.join(target, 'billing.csv'))).toBe(true);
  }, 120_000);
});

// Round 26: a damaged manifest was told as "an export made with other arguments", sending the user to hunt for them.
describe('a manifest in --out that meterdata did not write', () => {
  it.each(['garbage{', '{}', '[]', '{"tool":"meterdata"}'])(
    "%s: refused (exit 2) as no manifest of meterdata's, not as other arguments",
    async (text) => {
      const out = path.join(home, `manifest-${text.replace(/\W+/g, '_') || 'x'}`);
      await mkdir(out, { recursive: true });
      writeFileSync(path.join(out, 'meterdata-manifest.json'), text);
      const r = await runCli(exportRun(out), { env, cwd: home });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/holds meterdata-manifest\.json, which cannot be an export's manifest: it is not a manifest meterdata wrote/);
      expect(r.stderr).not.toMatch(/other arguments/);
    },
    120_000,
  );
});
