// What the portfolio's profiles hold while they finish (issue 15, the P = 16 tail): a
// workbook slot only while billing.xlsx is written, not through its fsync, checksum,
// manifest and renames, which the next profile's workbook need not wait for.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/core/io.js';
import { Slots } from '../../src/export/held.js';
import { parseExportArgs } from '../../src/export/options.js';
import { MANIFEST, writeWorkbookHere } from '../../src/export/output.js';
import { exportProfile } from '../../src/export/single.js';
import { loadTemplate } from '../../src/export/templates.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { signIn, tenantClients } from '../helpers/portfolio.js';

let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, autoConsent: true, clock: '2026-11-22', units: 30, rateLimitPerMinute: 0, clients: tenantClients() });
  home = await mkdtemp(path.join(os.tmpdir(), 'md-portfolio-tail-'));
  env = { METERDATA_HOME: home, SOURCE_DATE_EPOCH: '1767225600' };
  await signIn(sandbox, env, 'nord', 0);
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  await rm(home, { recursive: true, force: true });
});

describe("a portfolio profile's workbook slot", () => {
  it('is given back once billing.xlsx is written, before the manifest is put in place', async () => {
    const io: Io = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: Readable.from([]), env, cwd: home, signal: new AbortController().signal };
    const args = { ...parseExportArgs({ year: '2025', rateLimit: '3000', quiet: true }, home, env), profile: 'nord', out: path.join(home, 'out', 'nord') };
    const template = await loadTemplate(args.template, home);
    const workbooks = new Slots(1);
    let inUseWhileWriting = -1;
    let nextGotSlot: Promise<{ manifestThere: boolean }> | null = null;
    const summary = await exportProfile(args, template, io, {
      workbooks,
      writeWorkbook: async (input) => {
        inUseWhileWriting = workbooks.inUse;
        await writeWorkbookHere(input);
        // the next profile's workbook asks for the slot as this one's is done
        nextGotSlot = workbooks.acquire().then((release) => {
          release();
          return { manifestThere: existsSync(path.join(args.out, MANIFEST)) };
        });
      },
    });
    expect(summary.files.map((f) => f.name)).toContain('billing.xlsx');
    expect(inUseWhileWriting).toBe(1);
    expect(nextGotSlot).not.toBeNull();
    expect(await nextGotSlot!).toEqual({ manifestThere: false });
    expect(workbooks.inUse).toBe(0);
  }, 60_000);
});
