// A portfolio and a single run of the other command below its root, started together (round 32 F9, F10): the single
// run, one profile at 3,000 requests a minute, committed first; the portfolio's profile then committed beside it, both
// exit 0, and each folder was refused by both commands from then on. Now the portfolio checks its root against the
// other command before each profile's commit: the second to commit is refused (exit 2), nothing of it committed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { binaryIn, signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedInNord('md-portfolio-nested-'));
});
afterAll(async () => sandbox?.close());

const binary = (argv: string[]) => binaryIn(home, env, argv);

describe('a portfolio and a single run of the other command below its root, started together', () => {
  it.each([
    [
      'a uvi portfolio, an export into <root>/extra',
      ['uvi', '--month', '2025-11', '--profiles', 'nord'],
      (root: string) => ['export', '--year', '2025', '--format', 'csv', '--profile', 'nord', '--out', path.join(root, 'extra')],
      (root: string) => path.join(root, 'nord', '2025-11'),
    ],
    [
      'an export portfolio, a uvi into <root>/u',
      ['export', '--year', '2025', '--format', 'csv', '--profiles', 'nord'],
      (root: string) => ['uvi', '--month', '2025-11', '--profile', 'nord', '--out', path.join(root, 'u')],
      (root: string) => path.join(root, 'nord', 'billing.csv'),
    ],
  ])(
    '%s: the single run commits first, the portfolio’s profile is refused at its commit (exit 2), none of its files kept',
    async (name, portfolio, single, portfolioFile) => {
      const root = path.join(home, name.replace(/\W+/g, '-'));
      const before = sandbox.log.total;
      const running = runCli([...portfolio, '--rate-limit', '60', '--out', root, '--json'], { env, cwd: home });
      while (sandbox.log.total < before + 3) await new Promise((r) => setTimeout(r, 100));
      const first = await binary([...single(root), '--rate-limit', '3000', '--quiet']);
      expect(first.code, first.stderr).toBe(0);
      const done = await running;
      expect(done.code, done.stderr).toBe(2);
      const nord = JSON.parse(done.stdout.split('\n')[0]!) as { outcome: string; error: { code: string } };
      expect([nord.outcome, nord.error.code]).toEqual(['failed', 'EXPORT_OUT_IN_USE']);
      expect(existsSync(portfolioFile(root))).toBe(false);
    },
    180_000,
  );
});
