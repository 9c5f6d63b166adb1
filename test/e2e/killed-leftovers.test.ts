// What a killed run leaves in --out (kill -9, a power cut) is removed by the next run: the PDF
// writer's temporary file behind a letter's partial name (residents' figures) as well as the
// ".partial" files. Planted where a kill leaves it (no race), and once by a real kill -9 while
// the letters are drawn. The re-run exits 0 and its folder holds exactly its manifest's files.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, ROOT, runBin } from '../helpers/bin.js';
import { signedInNord } from '../helpers/portfolio.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  assertBuilt();
  ({ sandbox, home, env } = await signedInNord('md-killed-leftovers-'));
}, 120_000);
afterAll(async () => sandbox?.close());

const NORD = ['--profile', 'nord'];
const UVI = ['uvi', '--month', '2025-11', ...NORD];
const EXPORT = ['export', '--year', '2025', ...NORD];

const manifestFiles = (dir: string): string[] =>
  [
    ...(JSON.parse(readFileSync(path.join(dir, 'meterdata-manifest.json'), 'utf8')) as { files: { name: string }[] }).files.map((f) => f.name),
    'meterdata-manifest.json',
  ].sort();
const names = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);

describe('leftovers of a killed run', () => {
  it.each([
    ['uvi', UVI, '2025-11', '..letters-Nord-0efbc34d.pdf.partial.4242.1764270000000.k3j9x2.tmp'],
    ['export', EXPORT, '.', '..billing.csv.partial.4242.1764270000000.k3j9x2.tmp'],
  ] as const)(
    '%s: a temporary file of the PDF writer left in the folder is removed by the next run, which exits 0',
    async (cmd, args, sub, leftover) => {
      const out = path.join(home, `planted-${cmd}`);
      expect((await runBin([...args, '--out', out], env)).code).toBe(0);
      const dir = path.join(out, sub);
      writeFileSync(path.join(dir, leftover), '%PDF-1.7 WE 01 1,250 kWh');
      const again = await runBin([...args, '--out', out], env);
      expect(again.code, again.stderr).toBe(0);
      expect(names(dir)).toEqual(manifestFiles(dir));
    },
    300_000,
  );

  it('uvi killed (SIGKILL) while the letters are drawn: the next run exits 0 and leaves exactly its manifest’s files', async () => {
    const out = path.join(home, 'killed-uvi');
    const dir = path.join(out, '2025-11');
    // A kill lands between two PDFs now and then: tried again until one leaves a temporary file.
    let left: string[] = [];
    for (let attempt = 0; attempt < 5 && left.length === 0; attempt++) {
      const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'meterdata.js'), ...UVI, '--out', out], {
        env: { ...process.env, ...env },
        cwd: home,
        stdio: 'ignore',
      });
      const done = new Promise<void>((resolve) => child.on('close', () => resolve()));
      for (let i = 0; i < 4000 && child.exitCode === null; i++) {
        if (names(dir).some((n) => n.endsWith('.tmp'))) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      child.kill('SIGKILL');
      await done;
      left = names(dir).filter((n) => n.endsWith('.tmp'));
    }
    expect(left.length).toBeGreaterThan(0);
    const again = await runBin([...UVI, '--out', out], env);
    expect(again.code, again.stderr).toBe(0);
    expect(names(dir)).toEqual(manifestFiles(dir));
  }, 300_000);
});
