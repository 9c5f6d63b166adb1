// The portfolio's read-back files with a FIFO put in their place (anyone who may write into a
// shared --out or the state folder): the record of finished profiles and a kept profile's
// manifest. Neither may stop the run waiting for a writer; a hang fails by the test timeout.
import { failSummary } from '../helpers/summary-fails.js';
import { execFileSync } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
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
    homePrefix: 'md-portfolio-planted-',
    env: { SOURCE_DATE_EPOCH: '1795000000' },
  }));
});
afterAll(async () => sandbox?.close());

const argv = (out: string) => ['export', '--year', '2025', '--rate-limit', '3000', '--profiles', 'nord', '--out', out, '--json'];

/** A portfolio run whose summary could not be written: nord is finished and recorded for the re-run. */
async function recorded(name: string): Promise<string> {
  const out = path.join(home, name);
  failSummary.once = true;
  expect((await runCli(argv(out), { env, cwd: home })).code).toBe(1);
  return out;
}

describe('portfolio: read-back files replaced by a FIFO', () => {
  it('the record of finished profiles: read as none, the profile exported again, no wait', async () => {
    const out = await recorded('record-fifo');
    const records = path.join(home, 'state', 'portfolio');
    const [record] = await readdir(records);
    await rm(path.join(records, record!));
    execFileSync('mkfifo', [path.join(records, record!)]);
    const again = await runCli(argv(out), { env, cwd: home });
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { outcome: string }).outcome).toBe('exported');
  }, 30_000);

  it("a kept profile's manifest: not kept, and its folder refused naming the file (exit 2), no wait", async () => {
    const out = await recorded('manifest-fifo');
    const manifest = path.join(out, 'nord', 'meterdata-manifest.json');
    await rm(manifest);
    execFileSync('mkfifo', [manifest]);
    const again = await runCli(argv(out), { env, cwd: home });
    expect(again.code, again.stderr).toBe(2);
    const obj = JSON.parse(again.stdout) as { outcome: string; error: { code: string; message: string } };
    expect([obj.outcome, obj.error.code]).toEqual(['failed', 'EXPORT_OUT_IN_USE']);
    expect(obj.error.message).toMatch(/holds meterdata-manifest\.json, which cannot be an export's manifest: it is not a plain file/);
  }, 30_000);
});
