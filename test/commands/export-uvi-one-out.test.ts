// An export and the monthly information (`uvi`) never share an --out folder: `uvi --all-profiles`
// into an export portfolio's folder replaced its portfolio-summary.csv (nord's "3 not billed / 111
// info" became "0 / 0") and put the month folders inside the export's profile folders; single runs
// nested the same way in either order. Each is refused before any request, in one line, exit 2.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedInNord('md-export-uvi-one-out-'));
});
afterAll(async () => sandbox?.close());

const FAST = ['--rate-limit', '3000'];
const exportRun = (out: string, who: string[]) => ['export', '--year', '2025', '--format', 'csv', ...FAST, ...who, '--out', out];
const uviRun = (out: string, who: string[]) => ['uvi', '--month', '2025-11', ...FAST, ...who, '--out', out];
const SINGLE = ['--profile', 'nord'];
const PORTFOLIO = ['--profiles', 'nord'];

type Argv = (out: string, who: string[]) => string[];
const CASES: [string, Argv, string[], Argv, string[], RegExp][] = [
  ['uvi portfolio into an export portfolio', exportRun, PORTFOLIO, uviRun, PORTFOLIO, /holds an export \(.*nord\)/],
  ['uvi into an export portfolio', exportRun, PORTFOLIO, uviRun, SINGLE, /holds an export \(.*nord\)/],
  ['uvi into an export', exportRun, SINGLE, uviRun, SINGLE, /holds an export \(/],
  ['uvi portfolio into an export', exportRun, SINGLE, uviRun, PORTFOLIO, /holds an export \(/],
  ['export portfolio into a uvi portfolio', uviRun, PORTFOLIO, exportRun, PORTFOLIO, /holds monthly consumption information \(.*nord.2025-11\)/],
  ['export into a uvi portfolio', uviRun, PORTFOLIO, exportRun, SINGLE, /holds monthly consumption information \(.*nord.2025-11\)/],
  ['export into a uvi folder', uviRun, SINGLE, exportRun, SINGLE, /holds monthly consumption information \(.*2025-11\)/],
  ['export portfolio into a uvi folder', uviRun, SINGLE, exportRun, PORTFOLIO, /holds monthly consumption information \(.*2025-11\)/],
];

describe('export and uvi into one --out', () => {
  it.each(CASES)(
    "%s: refused in one line with exit 2 before any request, the first run's files unchanged",
    async (name, first, firstWho, second, secondWho, says) => {
      const out = path.join(home, name.replace(/\W+/g, '-'));
      const made = await runCli(first(out, firstWho), { env, cwd: home });
      expect(made.code, made.stderr).toBe(0);
      const before = await snapshot(out);
      const requests = sandbox.log.total;
      const again = await runCli([...second(out, secondWho), '--json'], { env, cwd: home });
      expect(again.code).toBe(2);
      expect(again.stderr.split('\n')[0]).toMatch(says);
      expect(again.stderr).toMatch(/Give export and uvi each an --out folder of its own/);
      expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!)).toMatchObject({ error: { code: 'EXPORT_OUT_IN_USE' } });
      expect(sandbox.log.total).toBe(requests);
      expect(await snapshot(out)).toEqual(before);
    },
    120_000,
  );

  // uvi --month 2025-10 --out Y/2025-11 wrote October's letters into Y/2025-11/2025-10/, inside November's folder.
  it.each([
    [
      'uvi of another month into a uvi month folder',
      uviRun,
      SINGLE,
      (y: string) => ['uvi', '--month', '2025-10', ...FAST, ...SINGLE, '--out', path.join(y, '2025-11')],
    ],
    ['uvi into a folder inside a uvi month folder', uviRun, SINGLE, (y: string) => uviRun(path.join(y, '2025-11', 'oktober'), SINGLE)],
    ['uvi portfolio into a uvi portfolio’s month folder', uviRun, PORTFOLIO, (y: string) => uviRun(path.join(y, 'nord', '2025-11'), PORTFOLIO)],
    ['export into a folder inside a uvi month folder', uviRun, SINGLE, (y: string) => exportRun(path.join(y, '2025-11', 'export'), SINGLE)],
  ] as [string, Argv, string[], (y: string) => string[]][])(
    "%s: refused in one line with exit 2 before any request, nothing written inside the month's folder",
    async (name, first, firstWho, second) => {
      const y = path.join(home, name.replace(/\W+/g, '-'));
      expect((await runCli(first(y, firstWho), { env, cwd: home })).code).toBe(0);
      const before = await snapshot(y);
      const dirs = (await readdir(y, { recursive: true })).length;
      const requests = sandbox.log.total;
      const again = await runCli([...second(y), '--json'], { env, cwd: home });
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr.split('\n')[0]).toMatch(
        /is \(or lies in\) the folder of one month's consumption information \(.*2025-11\); only that month's files go there\.$/,
      );
      expect(again.stderr).toMatch(/Give uvi the same --out for every month/);
      expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!)).toMatchObject({ error: { code: 'EXPORT_OUT_IN_USE' } });
      expect(sandbox.log.total).toBe(requests);
      expect(await snapshot(y)).toEqual(before);
      expect((await readdir(y, { recursive: true })).length).toBe(dirs);
    },
    120_000,
  );

  // `uvi --out <export>/uvi` passed (it looked only down its --out), and the export's next run into its own folder was refused for good.
  it.each([
    ['uvi into a folder inside an export', SINGLE, (out: string) => path.join(out, 'uvi')],
    ['uvi into a folder deep inside an export', SINGLE, (out: string) => path.join(out, 'a', 'b', 'uvi')],
    ['uvi into a folder inside an export portfolio’s root', PORTFOLIO, (out: string) => path.join(out, 'uvi')],
    ['uvi into a folder inside an export portfolio’s profile', PORTFOLIO, (out: string) => path.join(out, 'nord', 'uvi')],
  ] as [string, string[], (out: string) => string][])(
    "%s: refused in one line with exit 2 before any request; the export's next run into its folder still passes",
    async (name, exportWho, inside) => {
      const out = path.join(home, name.replace(/\W+/g, '-'));
      expect((await runCli(exportRun(out, exportWho), { env, cwd: home })).code).toBe(0);
      const before = await snapshot(out);
      const requests = sandbox.log.total;
      const again = await runCli([...uviRun(inside(out), SINGLE), '--json'], { env, cwd: home });
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr.split('\n')[0]).toMatch(/lies in the folder of an export \(.*\); the monthly information does not go into an export's folder\.$/);
      expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!)).toMatchObject({ error: { code: 'EXPORT_OUT_IN_USE' } });
      expect(sandbox.log.total).toBe(requests);
      expect(await snapshot(out)).toEqual(before);
      expect(existsSync(inside(out))).toBe(false);
      expect((await runCli(exportRun(out, exportWho), { env, cwd: home })).code).toBe(0);
    },
    120_000,
  );

  // Started together, each passed its check at the start (nothing committed yet) and both committed: checked again before the commit.
  it('an export and a uvi run into its folder started together: the one committing second is refused, nothing of it committed', async () => {
    const out = path.join(home, 'together');
    const before = sandbox.log.total;
    const slowExport = runCli(['export', '--year', '2025', '--format', 'csv', '--rate-limit', '90', ...SINGLE, '--out', out], { env, cwd: home });
    const deadline = Date.now() + 30_000;
    while (sandbox.log.total < before + 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const uvi = await runCli(uviRun(path.join(out, 'uvi'), SINGLE), { env, cwd: home });
    const exported = await slowExport;
    // The export is paced to last seconds longer, so the uvi run commits first; either way exactly one commits.
    expect([uvi.code, exported.code].sort(), `${uvi.stderr}\n${exported.stderr}`).toEqual([0, 2]);
    const loser = uvi.code === 2 ? uvi : exported;
    expect(loser.stderr).toMatch(uvi.code === 2 ? /lies in the folder of an export/ : /holds monthly consumption information \(.*2025-11\)/);
    expect(existsSync(path.join(out, 'meterdata-manifest.json'))).toBe(exported.code === 0);
    expect(existsSync(path.join(out, 'billing.csv'))).toBe(exported.code === 0);
    expect(existsSync(path.join(out, 'uvi', '2025-11', 'meterdata-manifest.json'))).toBe(uvi.code === 0);
  }, 120_000);

  it('a uvi folder beside an export, in a folder that is neither, is not refused', async () => {
    const parent = path.join(home, 'beside');
    expect((await runCli(exportRun(path.join(parent, 'export'), SINGLE), { env, cwd: home })).code).toBe(0);
    expect((await runCli(uviRun(path.join(parent, 'uvi'), SINGLE), { env, cwd: home })).code).toBe(0);
    expect((await runCli(exportRun(path.join(parent, 'export'), SINGLE), { env, cwd: home })).code).toBe(0);
  }, 120_000);

  it('says the month folder in German', async () => {
    const y = path.join(home, 'de-month');
    expect((await runCli(uviRun(y, SINGLE), { env, cwd: home })).code).toBe(0);
    const again = await runCli(['uvi', '--month', '2025-10', ...FAST, ...SINGLE, '--out', path.join(y, '2025-11'), '--lang', 'de'], { env, cwd: home });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      /ist der Ordner der Verbrauchsinformation eines Monats oder liegt darin \(.*2025-11\); dorthin gehören nur die Dateien dieses Monats\./,
    );
    expect(existsSync(path.join(y, '2025-11', '2025-10'))).toBe(false);
  }, 120_000);

  it('says it in German', async () => {
    const out = path.join(home, 'de');
    expect((await runCli(exportRun(out, SINGLE), { env, cwd: home })).code).toBe(0);
    const again = await runCli([...uviRun(out, SINGLE), '--lang', 'de'], { env, cwd: home });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/enthält einen Export .*; die monatliche Verbrauchsinformation gehört nicht in den Ordner eines Exports\./);
  }, 120_000);

  it('a month-named folder without a uvi manifest, or a uvi run again into its own folder, is not refused', async () => {
    const out = path.join(home, 'own');
    expect((await runCli(uviRun(out, PORTFOLIO), { env, cwd: home })).code).toBe(0);
    expect((await runCli(uviRun(out, PORTFOLIO), { env, cwd: home })).code).toBe(0);
    const plain = path.join(home, 'plain');
    await mkdir(path.join(plain, '2025-11'), { recursive: true });
    expect((await runCli(exportRun(plain, SINGLE), { env, cwd: home })).code).toBe(0);
  }, 120_000);

  it("a FIFO planted as a sub-folder's manifest is not waited on", async () => {
    const out = path.join(home, 'fifo');
    await mkdir(path.join(out, 'elsewhere'), { recursive: true });
    execFileSync('mkfifo', [path.join(out, 'elsewhere', 'meterdata-manifest.json')]);
    expect((await runCli(uviRun(out, SINGLE), { env, cwd: home })).code).toBe(0);
  }, 120_000);
});

/** Every file under `dir` with its content. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const out: Record<string, string> = {};
  for (const e of names) out[path.relative(dir, path.join(e.parentPath, e.name))] = (await readFile(path.join(e.parentPath, e.name))).toString('base64');
  return out;
}
