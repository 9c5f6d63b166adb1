// A folder where a run writes a file of that name (billing.csv, uvi.csv, a letter) made the commit's rename fail
// with EISDIR after every request: "unexpected failure (this is a bug)", a stack, and the folder left with its
// manifest aside and none in place, every re-run the same. It is refused before any request (the names a run
// knows at its start) or before the first rename (a letter's), exit 2, one line naming the folder; the folder
// and the earlier run's files stay as they were.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedInNord('md-out-name-folder-'));
});
afterAll(async () => sandbox?.close());

const FAST = ['--rate-limit', '3000', '--profile', 'nord'];
const exportRun = (out: string) => ['export', '--year', '2025', ...FAST, '--out', out, '--json'];
const uviRun = (out: string) => ['uvi', '--month', '2025-11', ...FAST, '--out', out, '--json'];

describe('a folder under a name the run writes', () => {
  it.each([
    ['export', 'billing.csv', exportRun, (out: string) => out],
    ['export', 'billing.xlsx', exportRun, (out: string) => out],
    ['uvi', 'uvi.csv', uviRun, (out: string) => path.join(out, '2025-11')],
    // round 29: the manifest's temporary name was refused only after every request
    ['export', '.meterdata-manifest.json.partial', exportRun, (out: string) => out],
    ['uvi', '.meterdata-manifest.json.partial', uviRun, (out: string) => path.join(out, '2025-11')],
  ] as const)(
    '%s with a folder at %s: refused before any request, exit 2, the earlier run untouched',
    async (_cmd, name, argv, dirOf) => {
      const out = path.join(home, `${_cmd}-${name}`);
      expect((await runCli(argv(out), { env, cwd: home })).code).toBe(0);
      const dir = dirOf(out);
      const manifest = readFileSync(path.join(dir, 'meterdata-manifest.json'), 'utf8');
      await rm(path.join(dir, name), { force: true });
      await mkdir(path.join(dir, name, 'kept'), { recursive: true });
      const requests = sandbox.log.total;
      const again = await runCli(argv(out), { env, cwd: home });
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr.split('\n')[0]).toMatch(new RegExp(`holds a folder named ${name.replace('.', '\\.')}, where meterdata writes its file of that name`));
      expect(again.stderr).not.toMatch(/this is a bug|at .*\.js:\d+/);
      expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!)).toMatchObject({ exit_code: 2, error: { code: 'EXPORT_OUT_IN_USE' } });
      expect(sandbox.log.total).toBe(requests);
      expect(readFileSync(path.join(dir, 'meterdata-manifest.json'), 'utf8')).toBe(manifest);
      expect(readdirSync(path.join(dir, name))).toEqual(['kept']);
      // moved away, the same command passes
      await rm(path.join(dir, name), { recursive: true });
      expect((await runCli(argv(out), { env, cwd: home })).code).toBe(0);
    },
    120_000,
  );

  it("a folder at a letter's name (known only after the walk): refused before the first rename, the earlier month's files and manifest in place", async () => {
    const out = path.join(home, 'uvi-letter');
    expect((await runCli(uviRun(out), { env, cwd: home })).code).toBe(0);
    const dir = path.join(out, '2025-11');
    const manifest = readFileSync(path.join(dir, 'meterdata-manifest.json'), 'utf8');
    const letter = readdirSync(dir).find((n) => n.startsWith('letter-'))!;
    const csv = readFileSync(path.join(dir, 'uvi.csv'), 'utf8');
    await rm(path.join(dir, letter));
    await mkdir(path.join(dir, letter, 'kept'), { recursive: true });
    const again = await runCli(uviRun(out), { env, cwd: home });
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toMatch(new RegExp(`holds a folder named ${letter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // the hint says once to run the command again (round 29: the folder's hint, then the run's own)
    expect(again.stderr.match(/run the same .*command again/gi)).toHaveLength(1);
    expect(again.stderr).not.toMatch(/this is a bug|at .*\.js:\d+/);
    expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!)).toMatchObject({ exit_code: 2, error: { code: 'EXPORT_OUT_IN_USE' } });
    expect(readFileSync(path.join(dir, 'meterdata-manifest.json'), 'utf8')).toBe(manifest);
    expect(readFileSync(path.join(dir, 'uvi.csv'), 'utf8')).toBe(csv);
    expect(readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]);
    await rm(path.join(dir, letter), { recursive: true });
    expect((await runCli(uviRun(out), { env, cwd: home })).code).toBe(0);
  }, 120_000);
});
