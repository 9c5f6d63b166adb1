// The version is read in one place (packageVersion): --version, the export's About sheet
// and manifest, and the API's User-Agent all say the same, also when the single
// executable hands in its embedded copy.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packageVersion, useEmbeddedResources } from '../../src/core/resources.js';
import { rig } from '../helpers/api-fixtures.js';
import { aWhoAmI } from '../helpers/builders.js';
import { runCli } from '../helpers/run-cli.js';

describe('one version', () => {
  it('reads package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(packageVersion()).toBe(pkg.version);
  });

  it('--version and the User-Agent of API requests use packageVersion, never a literal', async () => {
    useEmbeddedResources('9.8.7-test', () => {
      throw new Error('not needed');
    });
    const v = await runCli(['--version']);
    expect(v.stdout.trim()).toBe('9.8.7-test');
    const { api, client } = await rig();
    api.route('/v1/whoami', { json: aWhoAmI() });
    await client.whoami();
    expect(api.hits('/v1/whoami')[0]!.headers['user-agent']).toBe('meterdata/9.8.7-test');
  });
});
