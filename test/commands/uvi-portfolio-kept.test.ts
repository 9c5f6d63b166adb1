// A `uvi --all-profiles` re-run keeps a finished profile's month folder only when it is what this
// run would write. The record of finished profiles was keyed by the folder's identity alone: a
// re-run with --ww-temperature 50 --lang de kept the letters at 60 °C in English (exit 0).
import { failSummary } from '../helpers/summary-fails.js';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { signedInNord } from '../helpers/portfolio.js';
import { runCli } from '../helpers/run-cli.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedInNord('md-uvi-portfolio-kept-'));
});
afterAll(async () => sandbox?.close());

const argv = (out: string, more: string[] = []) => ['uvi', '--month', '2025-11', '--rate-limit', '3000', '--profiles', 'nord', '--out', out, '--json', ...more];
const outcomeOf = (stdout: string) => (JSON.parse(stdout.split('\n')[0]!) as { outcome: string }).outcome;

/** A portfolio run whose summary could not be written: nord is finished and recorded for the re-run. */
async function recorded(name: string): Promise<string> {
  const out = path.join(home, name);
  failSummary.once = true;
  expect((await runCli(argv(out), { env, cwd: home })).code).toBe(1);
  return out;
}

describe('a uvi portfolio re-run with arguments that change the letters or tables', () => {
  it('the same arguments keep the finished folder', async () => {
    const out = await recorded('same');
    const again = await runCli(argv(out), { env, cwd: home });
    expect([again.code, outcomeOf(again.stdout)]).toEqual([0, 'kept']);
  }, 120_000);

  it.each([
    ['--ww-temperature 50', ['--ww-temperature', '50']],
    ['--lang de', ['--lang', 'de']],
    ['--benchmark', ['--benchmark', 'bench.csv']],
    ['--unit-refs', ['--unit-refs', 'refs.csv']],
    ['--plant-meters', ['--plant-meters', 'plant.csv']],
  ])(
    '%s added: written again, not kept',
    async (name, more) => {
      await writeFile(
        path.join(home, 'bench.csv'),
        'unit_type,service,kwh_per_m2_year,source\nresidential,HEATING,90,Heizspiegel Musterstadt 2024\nresidential,HOT_WATER,20,Heizspiegel Musterstadt 2024\n',
      );
      await writeFile(path.join(home, 'refs.csv'), 'usage_unit_id,erp_ref\n');
      // a Property of another landlord: nord's letters are as before, yet the run is not the recorded one
      await writeFile(
        path.join(home, 'plant.csv'),
        'property_id,measuring_point_id,role\n00000000-0000-4000-8000-000000000001,00000000-0000-4000-8000-000000000002,plant_heat\n',
      );
      const out = await recorded(name.replace(/\W+/g, '-'));
      const again = await runCli(argv(out, more), { env, cwd: home });
      expect([again.code, outcomeOf(again.stdout)]).toEqual([0, 'exported']);
    },
    120_000,
  );

  // Round 27: the record ignored the landlord: a profile signed in to another landlord since kept the folder of the
  // one it stood for before ("kept", exit 0). Here the kept folder's manifest names another tenant than the profile.
  it("a folder holding another landlord than the profile's now: written again, not kept", async () => {
    const out = await recorded('other-tenant');
    const file = path.join(out, 'nord', '2025-11', 'meterdata-manifest.json');
    const manifest = JSON.parse(await readFile(file, 'utf8'));
    manifest.tenant.id = '0b7e1c52-3f4d-4c1a-9d7e-5a6b7c8d9e0f';
    await writeFile(file, JSON.stringify(manifest, null, 2));
    const again = await runCli(argv(out), { env, cwd: home });
    expect([again.code, outcomeOf(again.stdout)]).toEqual([0, 'exported']);
  }, 120_000);
});

// Round 31 F3: a portfolio into a folder holding a single profile's month was refused with the export's words
// ("holds a single-profile export"), which sent the reader looking for billing sheets.
describe('a uvi portfolio into a folder holding a single profile monthly information', () => {
  it('is refused in the monthly information own words, before any request', async () => {
    const out = path.join(home, 'single-uvi');
    const single = await runCli(['uvi', '--month', '2025-11', '--rate-limit', '3000', '--profile', 'nord', '--out', out], { env, cwd: home });
    expect(single.code).toBe(0);
    const before = sandbox.log.total;
    const r = await runCli(argv(out), { env, cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds the monthly information of a single profile/);
    expect(r.stderr).not.toMatch(/export/);
    expect(sandbox.log.total).toBe(before);
  }, 120_000);

  // Round 32 F1, F6: only a complete single run of the portfolio's own month was seen; one of another month, or one
  // killed in its commit (final files, no manifest), lay beside the profiles, its re-run refused for good.
  it.each([
    ['of another month', async (out: string) => void (await runSingle(out, '2025-10'))],
    [
      'killed in its commit (its files under final names, the manifest still temporary)',
      async (out: string) => {
        await runSingle(out, '2025-11');
        await rename(path.join(out, '2025-11', 'meterdata-manifest.json'), path.join(out, '2025-11', '.meterdata-manifest.json.partial'));
      },
    ],
  ])(
    'a single run %s is refused before any request',
    async (name, plant) => {
      const out = path.join(home, `single-${name.slice(0, 8).replace(/\W+/g, '-')}`);
      await plant(out);
      const before = sandbox.log.total;
      const r = await runCli(argv(out), { env, cwd: home });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/holds the monthly information of a single profile \(.*20\d\d-\d\d/);
      expect(sandbox.log.total).toBe(before);
    },
    120_000,
  );
});

async function runSingle(out: string, month: string) {
  const r = await runCli(['uvi', '--month', month, '--rate-limit', '3000', '--profile', 'nord', '--out', out], { env, cwd: home });
  expect(r.code, r.stderr).toBe(0);
}
