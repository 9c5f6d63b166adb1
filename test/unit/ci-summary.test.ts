// CI's closing line (scripts/ci-summary.mjs): the checks .ci/run makes before the tests
// (lint, format) count as failures there, so a lint failure fails CI even when every test passes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const script = path.resolve(import.meta.dirname, '../../scripts/ci-summary.mjs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'ci-summary-'));
const report = path.join(dir, 'results.json');
writeFileSync(report, JSON.stringify({ numPassedTests: 3, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, testResults: [] }));

const summary = (...args: string[]) => {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  return { status: r.status, lines: r.stdout.trim().split('\n') };
};

it('passes when the tests pass and no check failed', () => {
  expect(summary(report, '0', '0')).toEqual({ status: 0, lines: ['3 passed, 0 failed'] });
  expect(summary(report, '0')).toEqual({ status: 0, lines: ['3 passed, 0 failed'] });
});

it('a failed lint or format check counts as a failure and fails the run though every test passed', () => {
  expect(summary(report, '0', '1')).toEqual({ status: 1, lines: ['checks before the tests that failed (lint, format): 1', '3 passed, 1 failed'] });
  expect(summary(report, '0', '2').lines.at(-1)).toBe('3 passed, 2 failed');
});

it('counts the failed checks when the tests never ran, and refuses a count that is not one', () => {
  expect(summary(path.join(dir, 'none.json'), '1', '1')).toMatchObject({ status: 1, lines: [expect.stringContaining('no test report'), '0 passed, 2 failed'] });
  expect(summary(report, '0', 'x')).toMatchObject({ status: 1, lines: [expect.stringContaining('whole number'), '0 passed, 1 failed'] });
});
