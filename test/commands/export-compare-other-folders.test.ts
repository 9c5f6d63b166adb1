// `--compare` given a folder meterdata wrote that is no export (round 32 F5): a month of the monthly information was
// told as "that export covers fewer metrics", a portfolio's folder as "no meterdata export there". Both are named now,
// before any request of the export.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedInNord('md-compare-other-'));
});
afterAll(async () => sandbox?.close());

const FAST = ['--rate-limit', '3000'];

describe('--compare with a folder that holds no export', () => {
  it('a month of the monthly information: named as such (exit 2), before any request', async () => {
    const uvi = path.join(home, 'uvi');
    expect((await runCli(['uvi', '--month', '2025-11', ...FAST, '--profile', 'nord', '--out', uvi], { env, cwd: home })).code).toBe(0);
    const before = sandbox.log.total;
    const r = await runCli(['export', '--year', '2025', ...FAST, '--profile', 'nord', '--compare', path.join(uvi, '2025-11'), '--out', path.join(home, 'e1')], {
      env,
      cwd: home,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/a folder of the monthly consumption information \(meterdata uvi\), not an export/);
    expect(sandbox.log.total).toBe(before);
  }, 120_000);

  it('a portfolio’s folder: named, with its profile’s folder as the example', async () => {
    const root = path.join(home, 'portfolio');
    expect((await runCli(['export', '--year', '2024', ...FAST, '--profiles', 'nord', '--out', root], { env, cwd: home })).code).toBe(0);
    const r = await runCli(['export', '--year', '2025', ...FAST, '--profile', 'nord', '--compare', root, '--out', path.join(home, 'e2')], { env, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the folder of a portfolio export/);
    expect(r.stderr).toContain(`--compare ${path.join(root, '<profile>')}`);
  }, 120_000);
});
