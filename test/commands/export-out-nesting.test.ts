// Round 27: folders of one kind of run taken by another. A single profile's export or uvi into a portfolio's root lay
// beside the profiles' folders (and the portfolio was refused there after); an export into a folder below a uvi root
// passed (and the next month's uvi was refused for good); a damaged aside manifest was named as the manifest.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedInNord('md-out-nesting-'));
});
afterAll(async () => sandbox?.close());

const exportOf = (who: string[], out: string) => ['export', '--year', '2025', '--format', 'csv', '--rate-limit', '3000', ...who, '--out', out, '--json'];
const uviOf = (who: string[], out: string, month = '2025-11') => ['uvi', '--month', month, '--rate-limit', '3000', ...who, '--out', out, '--json'];

async function refusedBeforeAnyRequest(argv: string[], message: RegExp) {
  const requests = sandbox.log.total;
  const r = await runCli(argv, { env, cwd: home });
  expect(r.code, r.stderr).toBe(2);
  expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!).error.code).toBe('EXPORT_OUT_IN_USE');
  expect(r.stderr).toMatch(message);
  expect(sandbox.log.total).toBe(requests);
}

describe("a single profile's run into a portfolio's root", () => {
  it.each([
    ['export', exportOf],
    ['uvi', uviOf],
  ] as const)(
    '%s: refused before any request (exit 2); the portfolio runs there again afterwards',
    async (kind, run) => {
      const root = path.join(home, `portfolio-${kind}`);
      const first = await runCli(run(['--profiles', 'nord'], root), { env, cwd: home });
      expect(first.code, first.stderr).toBe(0);
      await refusedBeforeAnyRequest(
        run(['--profile', 'nord'], root),
        /is the folder of a portfolio \(its portfolio-summary\.csv beside the profiles' folders\)/,
      );
      expect(existsSync(path.join(root, kind === 'export' ? 'billing.csv' : '2025-11'))).toBe(false);
      const again = await runCli(run(['--profiles', 'nord'], root), { env, cwd: home });
      expect(again.code, again.stderr).toBe(0);
    },
    180_000,
  );
});

describe('an export into a folder below the monthly information', () => {
  it.each([
    ['a uvi root', ['--profile', 'nord'], 'letters'],
    ["a uvi portfolio's root", ['--profiles', 'nord'], 'letters-portfolio'],
  ])(
    '%s: refused before any request (exit 2), naming it',
    async (_what, who, name) => {
      const root = path.join(home, name);
      const first = await runCli(uviOf(who, root), { env, cwd: home });
      expect(first.code, first.stderr).toBe(0);
      await refusedBeforeAnyRequest(
        exportOf(['--profile', 'nord'], path.join(root, 'exports', 'x')),
        /lies in the folder of the monthly information \(.*\); an export does not go into it/,
      );
      expect(existsSync(path.join(root, 'exports'))).toBe(false);
    },
    180_000,
  );
});

// Round 58 T5: uvi looked for an export only in its root and the root's sub-folders; `export --out R/2025-11/sub` and
// `uvi --out R` both committed (also one after the other), and the export was refused for good after.
describe('a uvi run into a root with an export anywhere below it', () => {
  it.each([
    ['a month folder’s sub-folder', ['2025-11', 'sub']],
    ['two levels down', ['x', 'y', 'z']],
  ])(
    '%s: refused before any request (exit 2), naming the export; the export runs there again',
    async (_what, below) => {
      const root = path.join(home, `deep-${below.join('-')}`);
      const exported = path.join(root, ...below);
      const first = await runCli(exportOf(['--profile', 'nord'], exported), { env, cwd: home });
      expect(first.code, first.stderr).toBe(0);
      await refusedBeforeAnyRequest(uviOf(['--profile', 'nord'], root), new RegExp(exported.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      const again = await runCli(exportOf(['--profile', 'nord'], exported), { env, cwd: home });
      expect(again.code, again.stderr).toBe(0);
    },
    180_000,
  );
});

describe('a damaged aside copy of the manifest (a commit stopped half-way)', () => {
  it('is named as the file it is, not as a manifest that is not there', async () => {
    const out = path.join(home, 'aside-damaged');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, '.meterdata-manifest.json.replaced'), '[]');
    await refusedBeforeAnyRequest(exportOf(['--profile', 'nord'], out), /holds \.meterdata-manifest\.json\.replaced, which cannot be an export's manifest/);
    rmSync(out, { recursive: true });
  });
});
