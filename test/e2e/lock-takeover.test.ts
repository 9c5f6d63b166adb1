// Many exports finding the same dead owner's lock at one moment: exactly one takes it over.
// Each taker is a process of its own (the built code), all released at one instant; before
// claims, two or three of ten won most rounds (each removed the lock another had just placed).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../helpers/bin.js';

beforeAll(() => assertBuilt());

const TAKER = `
const [locks, file, at] = process.argv.slice(1);
const { takeLock } = await import(locks);
await new Promise((r) => setTimeout(r, Math.max(0, Number(at) - Date.now()))); // a taker started late goes at once, without a warning
try {
  await takeLock(file, new Error('busy'));
  console.log('won');
  await new Promise((r) => setTimeout(r, 1500)); // holds it while the others look
} catch (e) {
  console.log(e.message === 'busy' ? 'busy' : 'error ' + e.message);
}`;

function taker(file: string, at: number): Promise<string> {
  const locks = pathToFileURL(path.join(ROOT, 'dist', 'export', 'folder', 'locks.js')).href;
  return new Promise((resolve) => {
    const c = spawn(process.execPath, ['--input-type=module', '-e', TAKER, locks, file, String(at)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (out += d.toString()));
    c.on('close', () => resolve(out.trim()));
  });
}

describe("taking over a dead owner's lock", () => {
  it('ten processes at one instant, four times: exactly one wins each time, the others are told busy', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid; // a pid that has just ended
    for (let round = 0; round < 4; round++) {
      const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'md-lock-race-')), 'out-x.lock');
      writeFileSync(file, JSON.stringify({ pid: dead, host: os.hostname(), started: 1 }));
      const at = Date.now() + 2500; // every taker has started by then, even on two busy cores
      const results = await Promise.all(Array.from({ length: 10 }, () => taker(file, at)));
      expect(
        results.filter((r) => r === 'won'),
        results.join(', '),
      ).toHaveLength(1);
      expect(
        results.filter((r) => r === 'busy'),
        results.join(', '),
      ).toHaveLength(9);
    }
  }, 60_000);
});
