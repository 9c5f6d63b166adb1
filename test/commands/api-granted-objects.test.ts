// A token is scoped per tenant and per Property whitelist (spec "Authentication"): a Property or unit an answer
// lists that names another tenant, or a Property outside the whitelist /whoami names, is another landlord's or
// outside the consent. Before round 26 such answers were exported with exit 0 and no word; now the run stops
// (API_WRONG_OBJECT, exit 5) before anything is billed, nothing committed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { startRewritingProxy, type Rewrite } from '../helpers/rewriting-proxy.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

const OTHER_TENANT = '0b7e1c52-3f4d-4c1a-9d7e-5a6b7c8d9e0f';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;
let token: string;

beforeAll(async () => {
  ({ sandbox, home, env } = await signedIn({ clock: '2026-11-22', units: 30, homePrefix: 'md-granted-' }));
  token = (await runCli(['token'], { env, cwd: home })).stdout.trim();
}, 60_000);
afterAll(async () => sandbox?.close());

type Json = Record<string, any>;

async function behind(rewrite: Rewrite, argv: string[]) {
  const proxy = await startRewritingProxy(sandbox.url, rewrite);
  try {
    return await runCli([...argv, '--json', '--lang', 'en'], { env: { ...env, METERDATA_ACCESS_TOKEN: token, METERDATA_BASE_URL: proxy.base }, cwd: home });
  } finally {
    await proxy.close();
  }
}

/** The first item of a list answer at `pathname`, changed by `change`. */
const firstOf =
  (pathname: string, change: (item: Json) => void): Rewrite =>
  (p, json) => {
    if (p !== pathname || !Array.isArray(json.data) || json.data.length === 0) return undefined;
    change(json.data[0] as Json);
    return json;
  };

/** /whoami names a whitelist of the first Property only, while /properties lists them all. */
const whitelistOfOne = (): Rewrite => (p, json) => (p === '/v1/whoami' ? { ...json, property_scope: [firstProperty] } : undefined);
let firstProperty = '';
let properties = 0;

describe('Properties and units outside the connection', () => {
  beforeAll(async () => {
    const r = await behind(
      (p, json) => {
        if (p === '/v1/properties' && !firstProperty) {
          firstProperty = ((json.data as Json[])[0] as Json).id as string;
          properties = (json.data as Json[]).length;
        }
        return undefined;
      },
      ['export', '--year', '2025', '--format', 'csv', '--out', path.join(home, 'clean')],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(firstProperty).not.toBe('');
    expect(properties).toBeGreaterThan(1); // a whitelist of one leaves others out
  }, 120_000);

  it.each([
    ['a Property of another tenant', () => firstOf('/v1/properties', (x) => (x.tenant_id = OTHER_TENANT)), /with Property .* of another tenant \(0b7e1c52-/],
    ['a unit of another tenant', () => firstOf('/v1/usage-units', (x) => (x.tenant_id = OTHER_TENANT)), /with usage unit .* of another tenant \(0b7e1c52-/],
    // round 27: "with Property X of Property X"
    [
      'a Property outside the whitelist /whoami names',
      whitelistOfOne,
      /with Property [0-9a-f-]{36}, which is not among the Properties this connection may read/,
    ],
  ] as [string, () => Rewrite, RegExp][])(
    'export, %s: exit 5 API_WRONG_OBJECT, nothing committed',
    async (name, rewrite, says) => {
      const out = path.join(home, name.replace(/\W+/g, '-'));
      const r = await behind(rewrite(), ['export', '--year', '2025', '--format', 'csv', '--out', out]);
      expect(r.code, r.stderr).toBe(5);
      expect(r.stderr.split('\n')[0]).toMatch(says);
      expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ exit_code: 5, error: { code: 'API_WRONG_OBJECT' } });
      expect(existsSync(path.join(out, 'billing.csv'))).toBe(false);
    },
    120_000,
  );

  it('uvi, a Property of another tenant: exit 5, no letter', async () => {
    const out = path.join(home, 'uvi-other');
    const r = await behind(
      firstOf('/v1/properties', (x) => (x.tenant_id = OTHER_TENANT)),
      ['uvi', '--month', '2025-11', '--out', out],
    );
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/of another tenant/);
    expect(existsSync(path.join(out, '2025-11', 'uvi.csv'))).toBe(false);
  }, 120_000);

  it('says so in German', async () => {
    const proxy = await startRewritingProxy(
      sandbox.url,
      firstOf('/v1/properties', (x) => (x.tenant_id = OTHER_TENANT)),
    );
    try {
      const r = await runCli(['export', '--year', '2025', '--format', 'csv', '--out', path.join(home, 'de'), '--lang', 'de'], {
        env: { ...env, METERDATA_ACCESS_TOKEN: token, METERDATA_BASE_URL: proxy.base },
        cwd: home,
      });
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(/mit der Liegenschaft .* eines anderen Mandanten \(0b7e1c52-.*\) beantwortet, nicht dieser Verbindung/);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
