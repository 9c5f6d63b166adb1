// No Node warning reaches the user of the npm package: the dependencies' deprecated calls
// (archiver-utils' `new Buffer`, DEP0005; tsscmp's crypto.pseudoRandomBytes, DEP0115 in the
// demo's sandbox) are silent under node_modules only until Node is asked for pending
// deprecations, and the single executable's bundle is not under node_modules at all (there
// DEP0005 came in the middle of the demo's German output; test/e2e/exe.test.ts checks it).
// Under --pending-deprecation the package behaves as the executable did. Needs `npm run build`.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, runBin } from '../helpers/bin.js';
import { signedIn } from '../helpers/signed-in.js';

const NODE_WARNING = /Warning|\bDEP0\d+/;
const pending = (extra = '') => ({ NODE_OPTIONS: `--pending-deprecation${extra}` });

let sandbox: Sandbox;
let home: string;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, home } = await signedIn({ units: 8, homePrefix: 'md-e2e-warnings-' }));
});
afterAll(async () => sandbox?.close());

describe('Node warnings never reach the user', () => {
  it('demo: its German output without a DeprecationWarning (DEP0005 and DEP0115 without the change)', async () => {
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'md-e2e-warnings-demo-'));
    const r = await runBin(['demo', '--lang', 'de', '--units', '6', '--out', 'sheets'], { METERDATA_HOME: cwd, ...pending() }, { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(NODE_WARNING);
    expect(r.stdout).toMatch(/billing\.xlsx/);
  }, 120_000);

  it('export: the workbook written in a worker thread prints no warning either', async () => {
    const r = await runBin(['export', '--year', '2025', '--out', path.join(home, 'out'), '--quiet'], { METERDATA_HOME: home, ...pending() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  }, 120_000);

  it("meterdata's own errors still show; a developer who asks Node with --trace-warnings gets its warnings", async () => {
    const bad = await runBin(['export', '--yaer', '2025'], { METERDATA_HOME: home, ...pending() });
    expect([bad.code, bad.stderr.split('\n')[0]]).toEqual([2, "meterdata: unknown option '--yaer' (did you mean --year?)."]);
    const traced = await runBin(['export', '--year', '2025', '--out', path.join(home, 'traced'), '--quiet'], {
      METERDATA_HOME: home,
      ...pending(' --trace-warnings'),
    });
    expect(traced.code, traced.stderr).toBe(0);
    expect(traced.stderr).toMatch(/\[DEP0005\] DeprecationWarning/);
  }, 120_000);
});
