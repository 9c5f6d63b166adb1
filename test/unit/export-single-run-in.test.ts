// What a single run left in a portfolio's root (src/export/folder/out-folder.ts singleRunIn, round 32 F1, F6, F7): its
// files, or its commit's temporary ones; never the portfolio's own profile folders, whatever their names (round 33
// F2: a profile named "billing.csv" had every later portfolio into its root refused for good).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { singleRunIn } from '../../src/export/folder/index.js';

const root = () => mkdtempSync(path.join(os.tmpdir(), 'md-single-in-'));

describe('singleRunIn', () => {
  it('an export: one of its files, its manifest set aside or a commit’s .partial at the root', () => {
    for (const name of ['billing.csv', '.meterdata-manifest.json.replaced', '.meterdata-manifest.json.partial', '.review.csv.partial']) {
      const r = root();
      writeFileSync(path.join(r, name), 'x');
      expect(singleRunIn(r, 'export', ['billing.csv', 'review.csv'])).toBe(path.join(r, name));
    }
  });

  it('a write probe a killed run left (also ".partial") or another program’s .partial file is no trace', () => {
    const r = root();
    writeFileSync(path.join(r, '.meterdata-write-test-7-0b7e1c52-3f4d-4c1a-9d7e-5a6b7c8d9e0f.partial'), '');
    writeFileSync(path.join(r, '.notes.txt.partial'), '');
    expect(singleRunIn(r, 'export', ['billing.csv'])).toBeNull();
  });

  it('the portfolio’s own profile folders are no trace, whatever their names; nor is its summary', () => {
    const r = root();
    for (const p of ['billing.csv', 'meterdata-manifest.json', 'nord']) mkdirSync(path.join(r, p));
    writeFileSync(path.join(r, 'portfolio-summary.csv'), 'x');
    expect(singleRunIn(r, 'export', ['billing.csv'])).toBeNull();
  });

  it('the monthly information: a single run’s files in any month folder, not in a profile’s', () => {
    const r = root();
    mkdirSync(path.join(r, 'nord', '2025-11'), { recursive: true });
    writeFileSync(path.join(r, 'nord', '2025-11', 'uvi.csv'), 'x');
    expect(singleRunIn(r, 'uvi', ['uvi.csv'])).toBeNull();
    mkdirSync(path.join(r, '2025-09'));
    writeFileSync(path.join(r, '2025-09', 'uvi.csv'), 'x');
    expect(singleRunIn(r, 'uvi', ['uvi.csv'])).toBe(path.join(r, '2025-09', 'uvi.csv'));
  });
});
