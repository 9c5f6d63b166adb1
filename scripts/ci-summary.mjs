// Reads vitest's JSON report and prints the plain closing line CI reads.
// Under CI=true a skipped or todo test counts as failed: CI installs every tool.
import { existsSync, readFileSync } from 'node:fs';

// checksArg: how many of the checks before the tests (lint, format) failed; each counts as a failure.
const [file, statusArg, checksArg] = process.argv.slice(2);
const status = Number(statusArg ?? 1);
const checksFailed = Number(checksArg ?? 0);
if (!Number.isInteger(checksFailed) || checksFailed < 0) {
  console.log(`the count of failed checks must be a whole number of at least 0, not ${JSON.stringify(checksArg)}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
if (!existsSync(file)) {
  console.log(`no test report at ${file} (the test command exited ${status} before running tests)`);
  console.log(`0 passed, ${1 + checksFailed} failed`);
  process.exit(1);
}
const r = JSON.parse(readFileSync(file, 'utf8'));
const passed = r.numPassedTests ?? 0;
let failed = r.numFailedTests ?? 0;
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
// A suite that failed to load (syntax error, failing hook) has no failed tests in it.
const brokenSuites = (r.testResults ?? []).filter((s) => s.status === 'failed' && (s.assertionResults ?? []).every((a) => a.status !== 'failed'));
for (const s of brokenSuites) console.log(`suite failed outside any test: ${s.name}: ${(s.message ?? '').split('\n')[0]}`);
failed += brokenSuites.length;
const ci = process.env.CI === 'true';
if (ci && skipped > 0) {
  for (const s of r.testResults ?? [])
    for (const a of s.assertionResults ?? [])
      if (a.status === 'pending' || a.status === 'skipped' || a.status === 'todo') console.log(`skipped under CI (counts as failed): ${a.fullName}`);
  failed += skipped;
}
if (passed === 0 && failed === 0) failed = 1; // ran no test: that is a failure too
if (checksFailed > 0) console.log(`checks before the tests that failed (lint, format): ${checksFailed}`);
failed += checksFailed;
console.log(ci || skipped === 0 ? `${passed} passed, ${failed} failed` : `${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || status !== 0 ? 1 : 0);
