// --compare DIR whose manifest lists a CSV larger than a JavaScript string can hold (over
// 0x1fffffe8 characters, about 512 MiB) with its true size and SHA-256: the folder reader
// accepts listed files up to 1 GiB (LISTED_FILE_MAX), reads it, then turns it into text, which
// throws ERR_STRING_TOO_LONG: a crash ("unexpected failure", exit 1) instead of the one-line
// refusal (exit 2) every other unusable folder gets. Now refused, before any byte is read, as too large to read.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WhoAmI } from '../../src/api/types.js';
import { loadComparisonFolder } from '../../src/export/folder/compare-folder.js';

const WHO: WhoAmI = { tenant_id: 't-1', tenant_name: 'Hausverwaltung Nordlicht GmbH', client_id: 'c', granted_scopes: [], property_scope: 'all' };
/** One byte more than V8's longest string (0x1fffffe8 characters), well under the reader's 1 GiB bound. */
const BYTES = 0x1fffffe8 + 1;
let dir = '';

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function sha256(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

describe('--compare with a listed CSV too long for a string', () => {
  it('is refused in one line (a UsageError, exit 2), not a crash', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'md-cmp-huge-'));
    const file = path.join(dir, 'billing.csv');
    const handle = await open(file, 'w');
    await handle.truncate(BYTES); // sparse: no disk used
    await handle.close();
    const manifest = {
      tool: 'meterdata',
      identity: { template: 'generic' },
      tenant: { id: 't-1', name: WHO.tenant_name },
      range: { from: '2024-01-01', to: '2024-12-31' },
      files: [{ name: 'billing.csv', bytes: BYTES, sha256: await sha256(file) }],
    };
    await writeFile(path.join(dir, 'meterdata-manifest.json'), JSON.stringify(manifest));
    let thrown: unknown;
    try {
      await loadComparisonFolder(dir, WHO);
    } catch (e) {
      thrown = e;
    }
    expect((thrown as { code?: string }).code).toMatch(/^EXPORT_COMPARE_/);
    expect((thrown as { exitCode?: number }).exitCode).toBe(2);
    expect((thrown as Error).message).toMatch(/billing\.csv is larger than the 256 MiB meterdata reads back/);
  }, 120_000);
});
