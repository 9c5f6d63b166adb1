// A portfolio re-run keeps a profile an earlier run finished (outcome kept, no request) when its
// folder "still holds that export's manifest" (docs/export.md): the manifest's identity and
// exported_at are compared, the files it lists are not. A kept folder whose billing.csv was
// deleted, or whose figure was edited (one value set to 999999.9), since the first run is kept
// with exit 0 and the earlier run's summary, though the folder no longer holds that export;
// --compare DIR checks each listed file's size and SHA-256 and would refuse the same folder.
// Nor was the record of finished profiles keyed by --unit-refs, --lang or --strict: a re-run
// adding --unit-refs kept a billing.csv without erp_ref, adding --lang de kept the English
// review.csv, adding --strict kept with exit 0 a folder whose findings a fresh --strict run exits 6 on.
// A manifest listing a file twice (no list meterdata writes) was kept, each entry checked alike.
import { failSummary } from '../helpers/summary-fails.js';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { tenantClients } from '../helpers/portfolio.js';
import { signedIn } from '../helpers/signed-in.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({
    units: 10,
    admin: true,
    rateLimitPerMinute: 0,
    oauthRateLimitPerMinute: 0,
    clients: tenantClients(),
    profiles: [{ name: 'nord', tenant: 0 }],
    homePrefix: 'md-portfolio-kept-files-',
    env: { SOURCE_DATE_EPOCH: '1795000000' },
  }));
});
afterAll(async () => sandbox?.close());

const argv = (out: string, more: string[] = []) => [
  'export',
  '--year',
  '2025',
  '--rate-limit',
  '3000',
  '--format',
  'csv',
  '--profiles',
  'nord',
  '--out',
  out,
  '--json',
  ...more,
];

/** A portfolio run whose summary could not be written: nord is finished and recorded for the re-run. */
async function recorded(name: string): Promise<string> {
  return (await recordedWith(name)).out;
}

async function recordedWith(name: string): Promise<{ out: string; attention: number }> {
  const out = path.join(home, name);
  failSummary.once = true;
  const first = await runCli(argv(out), { env, cwd: home });
  expect(first.code).toBe(1);
  const { flags } = JSON.parse(first.stdout.split('\n')[0]!) as { flags: { not_billed: number; review: number } };
  return { out, attention: flags.not_billed + flags.review };
}

const outcomeOf = (stdout: string) => (JSON.parse(stdout.split('\n')[0]!) as { outcome: string }).outcome;

describe("a finished profile's folder changed before the re-run", () => {
  it.each([
    ['billing.csv deleted', (file: string) => rm(file)],
    ['a billing.csv figure edited', async (file: string) => writeFile(file, (await readFile(file, 'utf8')).replace(/,(\d+)\.(\d+),/, ',999999.9,'))],
    [
      'the manifest listing billing.csv twice',
      async (file: string) => {
        const manifest = path.join(path.dirname(file), 'meterdata-manifest.json');
        const m = JSON.parse(await readFile(manifest, 'utf8')) as { files: { name: string }[] };
        m.files.push(m.files.find((f) => f.name === 'billing.csv')!);
        await writeFile(manifest, JSON.stringify(m));
      },
    ],
  ] as const)(
    '%s: not kept as that export (exported again or refused)',
    async (_name, change) => {
      const out = await recorded(_name.replace(/\W+/g, '-'));
      await change(path.join(out, 'nord', 'billing.csv'));
      const again = await runCli(argv(out), { env, cwd: home });
      expect([again.code, outcomeOf(again.stdout)]).not.toEqual([0, 'kept']);
    },
    60_000,
  );
});

describe('a portfolio re-run with arguments that change the files or the exit', () => {
  it('--unit-refs added: exported again, billing.csv with erp_ref', async () => {
    const out = await recorded('unit-refs');
    await writeFile(path.join(home, 'refs.csv'), 'usage_unit_id,erp_ref\n');
    const again = await runCli(argv(out, ['--unit-refs', path.join(home, 'refs.csv')]), { env, cwd: home });
    expect([again.code, outcomeOf(again.stdout)]).toEqual([0, 'exported']);
    expect((await readFile(path.join(out, 'nord', 'billing.csv'), 'utf8')).split('\n')[0]).toContain('erp_ref');
  }, 60_000);

  it('--lang de added: exported again', async () => {
    const out = await recorded('lang');
    expect(outcomeOf((await runCli(argv(out, ['--lang', 'de']), { env, cwd: home })).stdout)).toBe('exported');
  }, 60_000);

  it('--strict added: a kept folder with findings exits 6, as a fresh --strict run does', async () => {
    const { out, attention } = await recordedWith('strict');
    expect(attention).toBeGreaterThan(0);
    const again = await runCli(argv(out, ['--strict']), { env, cwd: home });
    expect([again.code, outcomeOf(again.stdout)]).toEqual([6, 'kept']);
  }, 60_000);
});
