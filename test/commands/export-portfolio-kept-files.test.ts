// A portfolio re-run keeps a profile an earlier run finished (outcome kept, no request) when its
// folder "still holds that export's manifest" (docs/export.md): the manifest's identity and
// exported_at are compared, the files it lists are not. A kept folder whose billing.csv was
// deleted, or whose figure was edited (one value set to 999999.9), since the first run is kept
// with exit 0 and the earlier run's summary, though the folder no longer holds that export;
// --compare DIR checks each listed file's size and SHA-256 and would refuse the same folder.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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

const argv = (out: string) => ['export', '--year', '2025', '--rate-limit', '3000', '--format', 'csv', '--profiles', 'nord', '--out', out, '--json'];

/** A portfolio run whose summary could not be written: nord is finished and recorded for the re-run. */
async function recorded(name: string): Promise<string> {
  const out = path.join(home, name);
  await mkdir(path.join(out, 'portfolio-summary.csv', 'in-the-way'), { recursive: true });
  expect((await runCli(argv(out), { env, cwd: home })).code).toBe(1);
  await rm(path.join(out, 'portfolio-summary.csv'), { recursive: true });
  return out;
}

describe("a finished profile's folder changed before the re-run", () => {
  it.each([
    ['billing.csv deleted', (file: string) => rm(file)],
    ['a billing.csv figure edited', async (file: string) => writeFile(file, (await readFile(file, 'utf8')).replace(/,(\d+)\.(\d+),/, ',999999.9,'))],
  ] as const)(
    '%s: not kept as that export (exported again or refused)',
    async (_name, change) => {
      const out = await recorded(_name.replace(/\W+/g, '-'));
      await change(path.join(out, 'nord', 'billing.csv'));
      const again = await runCli(argv(out), { env, cwd: home });
      const outcome = (JSON.parse(again.stdout.split('\n')[0]!) as { outcome: string }).outcome;
      expect([again.code, outcome]).not.toEqual([0, 'kept']);
    },
    60_000,
  );
});
