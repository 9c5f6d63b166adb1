// scripts/function-lengths.mjs: the figures issue 23's closing note asks for, counted as
// eslint's max-lines-per-function counts them (a closure factory whole, blank lines and
// comments included), and the files over 300 lines.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const script = path.resolve(import.meta.dirname, '../../scripts/function-lengths.mjs');

function lengths(...args: string[]) {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

it('names the longest functions with file:line and length, a factory with its closures counted whole', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'function-lengths-'));
  const inner = ['  const inner = () => {', ...Array.from({ length: 6 }, (_, i) => `    // step ${i}`), '  };'];
  writeFileSync(
    path.join(dir, 'factory.ts'),
    ['// a factory', 'export function factory() {', ...inner, '', '  return inner;', '}', 'const arrow = (x: number) =>', '  x + 1;', ''].join('\n'),
  );
  writeFileSync(path.join(dir, 'long.tsx'), `${Array.from({ length: 301 }, (_, i) => `export const c${i} = ${i};`).join('\n')}\n`);
  writeFileSync(path.join(dir, 'types.d.ts'), 'export declare function skipped(): void;\n');
  const r = lengths('--top', '2', dir);
  expect(r.status).toBe(0);
  const lines = r.out.trim().split('\n');
  expect(lines[1]).toMatch(/^ +12 {2}factory .*factory\.ts:2$/);
  expect(lines[2]).toMatch(/^ +8 {2}inner .*factory\.ts:3$/);
  expect(lines).toHaveLength(5);
  expect(lines[3]).toBe('Files over 300 lines:');
  expect(lines[4]).toMatch(/^ +301 {2}.*long\.tsx$/);
});

it('says so when no file is over 300 lines, and refuses a --top that is not a whole number', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'function-lengths-'));
  writeFileSync(path.join(dir, 'short.ts'), 'export function f() {\n  return 1;\n}\n');
  expect(lengths(dir).out).toMatch(/ +3 {2}f .*short\.ts:1\nNo file over 300 lines\.\n$/);
  const bad = lengths('--top', 'x', dir);
  expect(bad).toMatchObject({ status: 2, err: 'function-lengths: --top wants a whole number of at least 1, e.g. --top 10\n' });
});
