// The shape of round 18's probe, bounded: a run's --out lock is taken over mid-run by another
// host's run (what a run paused past the 10-minute rule finds on waking; planted here, since a
// stopped process cannot be tested in-process). Before, the run committed into the folder and
// its end removed the other run's lock; now it stops before its commit (EXPORT_OUT_TAKEN_OVER,
// exit 2), puts nothing under a final name, leaves the other's lock, and a re-run once the other
// is done continues from its journal.
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLDER_LOCK } from '../../src/export/folder/folder-lock.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedInNord('md-taken-over-'));
}, 120_000);
afterAll(async () => sandbox?.close());

const OTHER = JSON.stringify({ pid: 4242, host: 'otherhost', started: 1 });
const exportRun = (out: string) => ['export', '--year', '2025', '--format', 'csv', '--rate-limit', '60', '--profile', 'nord', '--out', out];

/** Runs `argv`, planting another host's record into `lock` after the run's third request. */
async function takenOver(argv: string[], lock: string) {
  const before = sandbox.log.total;
  const running = runCli(argv, { env, cwd: home });
  const deadline = Date.now() + 120_000;
  while (sandbox.log.total < before + 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await writeFile(lock, OTHER);
  return running;
}

describe('an export whose --out folder another host took over while it ran', () => {
  it('commits nothing (exit 2), leaves the new holder its lock; run again afterwards, it completes', async () => {
    const out = path.join(home, 'taken');
    const done = await takenOver(exportRun(out), path.join(out, FOLDER_LOCK));
    expect(done.code, done.stderr).toBe(2);
    expect(done.stderr.split('\n').find((l) => l.startsWith('meterdata:'))).toMatch(
      new RegExp(
        `^meterdata: The lock of ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was replaced while this run was writing into it: another meterdata run took the folder over`,
      ),
    );
    expect(done.stderr).not.toMatch(/\n\s+at |this is a bug/);
    expect((await readdir(out)).filter((n) => !n.startsWith('.'))).toEqual([]);
    expect(await readFile(path.join(out, FOLDER_LOCK), 'utf8')).toBe(OTHER);

    await rm(path.join(out, FOLDER_LOCK)); // the other run is done
    const again = await runCli(exportRun(out), { env, cwd: home });
    expect(again.code, again.stderr).toBe(0);
    const manifest = JSON.parse(await readFile(path.join(out, 'meterdata-manifest.json'), 'utf8')) as { files: { name: string }[] };
    expect((await readdir(out)).sort()).toEqual([...manifest.files.map((f) => f.name), 'meterdata-manifest.json'].sort());
  }, 300_000);

  it("uvi: its --out root's lock replaced, the month folder is not committed (exit 2)", async () => {
    const root = path.join(home, 'uvi-root');
    const done = await takenOver(['uvi', '--profile', 'nord', '--month', '2025-11', '--rate-limit', '60', '--out', root], path.join(root, FOLDER_LOCK));
    expect(done.code, done.stderr).toBe(2);
    expect(done.stderr).toContain(`The lock of ${root} was replaced while this run was writing into it: another meterdata run took the folder over`);
    expect(existsSync(path.join(root, '2025-11', 'meterdata-manifest.json'))).toBe(false);
    expect(await readFile(path.join(root, FOLDER_LOCK), 'utf8')).toBe(OTHER);
  }, 300_000);

  it("portfolio: its --out root's lock replaced, no profile is committed and no summary written (exit 2)", async () => {
    const root = path.join(home, 'portfolio-root');
    const argv = ['export', '--profiles', 'nord', '--year', '2025', '--format', 'csv', '--rate-limit', '60', '--out', root];
    const done = await takenOver(argv, path.join(root, FOLDER_LOCK));
    expect(done.code, done.stderr).toBe(2);
    expect(done.stderr).toContain(`The lock of ${root} was replaced while this run was writing into it: another meterdata run took the folder over`);
    expect(existsSync(path.join(root, 'portfolio-summary.csv'))).toBe(false);
    expect(existsSync(path.join(root, 'nord', 'meterdata-manifest.json'))).toBe(false);
    expect(await readFile(path.join(root, FOLDER_LOCK), 'utf8')).toBe(OTHER);
  }, 300_000);
});

describe('a portfolio whose root was taken over, then interrupted', () => {
  it('one code for the signal: the closing JSON object is INTERRUPTED with exit 130, and stderr still tells the takeover', async () => {
    const root = path.join(home, 'portfolio-ctrl-c');
    const argv = ['export', '--profiles', 'nord', '--year', '2025', '--format', 'csv', '--rate-limit', '60', '--out', root, '--json'];
    const ctrlC = new AbortController();
    const before = sandbox.log.total;
    const running = runCli(argv, { env, cwd: home, signal: ctrlC.signal });
    const deadline = Date.now() + 120_000;
    while (sandbox.log.total < before + 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await writeFile(path.join(root, FOLDER_LOCK), OTHER);
    while (sandbox.log.total < before + 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    ctrlC.abort();
    const done = await running;
    expect(done.code, done.stderr).toBe(130);
    const objects = done.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { exit_code: number; error?: { code: string } });
    for (const o of objects) if (o.exit_code === 130) expect(o.error?.code).toMatch(/INTERRUPTED$/);
    expect(objects.at(-1)).toMatchObject({ outcome: 'failed', exit_code: 130, error: { code: 'INTERRUPTED' } });
    expect(done.stderr).toContain(`The lock of ${root} was replaced while this run was writing into it`);
    expect(existsSync(path.join(root, 'portfolio-summary.csv'))).toBe(false);
    expect(await readFile(path.join(root, FOLDER_LOCK), 'utf8')).toBe(OTHER);
  }, 300_000);
});
