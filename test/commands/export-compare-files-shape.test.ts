// A --compare DIR manifest whose `files` is not a list of objects with names (5, {}, [null], an
// entry without a string name) crashed the export after /whoami: `f.name` of a number or null,
// exit 1 "unexpected failure" with a stack. A name listed twice was read and trusted once per
// entry. Now each is the one-line EXPORT_COMPARE_INVALID refusal, exit 2, before any request;
// the kept check of a portfolio re-run and the stale files of a replaced export read such a list
// as none (listed-files.ts, listedEntries).
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listedEntries } from '../../src/export/folder/listed-files.js';
import { staleFiles } from '../../src/export/folder/out-folder.js';
import { startFakeApi, type FakeApi } from '../helpers/fake-api-server.js';
import { runCli } from '../helpers/run-cli.js';
import { aWhoAmI } from '../helpers/builders.js';

const BILLING = 'property_id,billable_value\r\n';
const entry = { name: 'billing.csv', bytes: Buffer.byteLength(BILLING), sha256: createHash('sha256').update(BILLING).digest('hex') };

async function folderWith(files: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'md-cmp-shape-'));
  await writeFile(path.join(dir, 'billing.csv'), BILLING);
  const manifest = {
    tool: 'meterdata',
    identity: { template: 'generic' },
    tenant: { id: aWhoAmI().tenant_id },
    range: { from: '2024-01-01', to: '2024-12-31' },
  };
  await writeFile(path.join(dir, 'meterdata-manifest.json'), JSON.stringify(files === undefined ? manifest : { ...manifest, files }));
  return dir;
}

let api: FakeApi | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

const SHAPES: [string, unknown, RegExp][] = [
  ['a number', 5, /list of files is not the list meterdata writes/],
  ['an object', {}, /list of files is not the list meterdata writes/],
  ['a list holding null', [null], /list of files is not the list meterdata writes/],
  ['an entry without a string name', [{ name: 7, bytes: 1, sha256: 'x' }], /list of files is not the list meterdata writes/],
  ['a file named twice', [entry, entry], /lists billing\.csv more than once/],
  ['a file named twice in other letters', [entry, { ...entry, name: 'BILLING.csv' }], /lists BILLING\.csv more than once/],
];

describe('--compare DIR whose manifest lists its files in a shape meterdata never writes', () => {
  it.each(SHAPES)('%s: refused in one line, exit 2, EXPORT_COMPARE_INVALID, before any request', async (_name, files, message) => {
    api = await startFakeApi();
    api.route('/v1/whoami', { json: aWhoAmI() });
    const dir = await folderWith(files);
    const home = mkdtempSync(path.join(os.tmpdir(), 'md-cmp-shape-home-'));
    const env = { METERDATA_HOME: home, METERDATA_ACCESS_TOKEN: 'tok', METERDATA_BASE_URL: api.baseUrl };
    const r = await runCli(['export', '--year', '2025', '--compare', dir, '--out', path.join(home, 'out'), '--format', 'csv', '--json'], { env, cwd: home });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/unexpected|\n\s+at /);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe('EXPORT_COMPARE_INVALID');
    expect(api.requests).toEqual([]);
  });
});

describe("a manifest's list of files read back elsewhere", () => {
  it('is read as no list when a name comes twice or an entry is not an object', () => {
    expect(listedEntries([entry, entry])).toEqual({ problem: 'twice', name: 'billing.csv' });
    expect(listedEntries([entry, 5])).toEqual({ problem: 'shape' });
    expect(listedEntries([entry])).toEqual({ entries: [entry] });
  });

  it('names no stale file to remove from a replaced export whose manifest lists a name twice', async () => {
    const dir = await folderWith([entry, entry]);
    expect(staleFiles(dir, [])).toEqual([]);
    const once = await folderWith([entry]);
    expect(staleFiles(once, [])).toEqual(['billing.csv']);
  });
});
