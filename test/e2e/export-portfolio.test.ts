// The built binary exports three landlord connections in one run; one of them is
// disconnected by its landlord in the middle. Each folder must hold exactly what a
// single-profile export of that profile writes. Needs `npm run build`.
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { runBin } from '../helpers/bin.js';
import { folderBytes, liveSid, signIn, tenantClients } from '../helpers/portfolio.js';
import { signedIn } from '../helpers/signed-in.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// The sandbox's limit is off: the client paces itself at this rate (the files do not depend on it).
const FAST = ['--rate-limit', '3000'];
let sandbox: Sandbox;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  if (!existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  ({ sandbox, home, env } = await signedIn({
    units: 120,
    admin: true,
    rateLimitPerMinute: 0,
    clients: tenantClients(),
    profiles: [
      { name: 'nord', tenant: 0 },
      { name: 'sued', tenant: 1 },
      { name: 'spaet', tenant: 0 },
    ],
    homePrefix: 'md-e2e-portfolio-',
    env: { SOURCE_DATE_EPOCH: '1767225600' },
  }));
}, 60_000);
afterAll(async () => sandbox?.close());

describe('portfolio export of the built CLI', () => {
  it('exports three profiles at once, one revoked in the middle; each folder is byte for byte a single-profile export', async () => {
    const out = path.join(home, 'portfolio');
    const spaetSid = liveSid(sandbox, 0, 1);
    let revoked: Promise<Response> | null = null;
    const run = await runBin(['export', '--year', '2025', ...FAST, '--all-profiles', '--out', out], env, {
      cwd: home,
      timeoutMs: 120_000,
      // the landlord disconnects spaet in the portal (the sandbox's /admin) once its first Property is written
      onStderr: (text) => {
        if (!revoked && /^spaet: property 1\//m.test(text)) revoked = fetch(`${sandbox.url}/admin/connections/${spaetSid}/disconnect`, { method: 'POST' });
      },
    });
    expect(revoked).not.toBeNull();
    expect((await revoked!).status).toBe(200);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^profile nord: exported in /m);
    expect(run.stderr).toMatch(/^profile sued: exported in /m);
    expect(run.stderr).toMatch(/^profile spaet: failed \(exit 3, [A-Z_]+\): .*meterdata login/m);
    const summary = (await readFile(path.join(out, 'portfolio-summary.csv'), 'utf8')).split('\r\n');
    expect(summary.slice(1, 4).map((l) => l.split(',').slice(0, 3).join(','))).toEqual(['nord,exported,0', 'spaet,failed,3', 'sued,exported,0']);
    expect(existsSync(path.join(out, 'spaet', 'meterdata-manifest.json'))).toBe(false);
    // nothing left in its folder (the process has ended: a render of its rows that came after the abort made nothing again)
    expect(await readdir(path.join(out, 'spaet')).catch(() => [])).toEqual([]);

    // signed in again, the same command continues spaet only
    await signIn(sandbox, env, 'spaet', 0);
    const before = sandbox.log.total;
    const again = await runBin(['export', '--year', '2025', ...FAST, '--all-profiles', '--out', out, '--json'], env, { cwd: home, timeoutMs: 120_000 });
    expect(again.code).toBe(0);
    const objects = again.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { profile: string; outcome: string; requests: number; resumed: boolean });
    expect(objects.map((o) => [o.profile, o.outcome])).toEqual([
      ['nord', 'kept'],
      ['spaet', 'exported'],
      ['sued', 'kept'],
    ]);
    expect(objects[1]!.resumed).toBe(true);
    expect(sandbox.log.total - before).toBe(objects[1]!.requests);

    for (const p of ['nord', 'spaet', 'sued']) {
      const single = path.join(home, `single-${p}`);
      const s = await runBin(['export', '--year', '2025', ...FAST, '--profile', p, '--out', single, '--quiet'], env, { cwd: home, timeoutMs: 120_000 });
      expect(s.code).toBe(0);
      const got = await folderBytes(path.join(out, p));
      const want = await folderBytes(single);
      expect(Object.keys(got)).toEqual(Object.keys(want));
      for (const name of Object.keys(want)) expect(got[name]!.equals(want[name]!), `${p}/${name}`).toBe(true);
    }
  }, 300_000);

  it('checks METERDATA_EXPORT_HEAP_MB, the heap of the worker it runs in, before any request', async () => {
    const before = sandbox.log.total;
    const run = await runBin(
      ['export', '--year', '2025', ...FAST, '--all-profiles', '--out', path.join(home, 'heap')],
      { ...env, METERDATA_EXPORT_HEAP_MB: '5' },
      { cwd: home, timeoutMs: 60_000 },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/METERDATA_EXPORT_HEAP_MB=5 is not a whole number of megabytes between 128 and 65536/);
    expect(sandbox.log.total).toBe(before);
  }, 120_000);

  it('Ctrl-C reaches the profiles in the worker: exit 130, every profile interrupted, the summary written', async () => {
    const out = path.join(home, 'interrupted');
    let sent = false;
    // at the default 300/min each export takes many seconds: the signal lands in the middle
    const run = await runBin(['export', '--year', '2025', '--profiles', 'nord,sued', '--out', out], env, {
      cwd: home,
      timeoutMs: 120_000,
      onStderr: (text, child) => {
        if (!sent && /^(nord|sued): property 1\//m.test(text)) sent = child.kill('SIGINT');
      },
    });
    expect(sent).toBe(true);
    expect(run.code).toBe(130);
    const summary = (await readFile(path.join(out, 'portfolio-summary.csv'), 'utf8')).split('\r\n');
    expect(summary.slice(1, 3).map((l) => l.split(',').slice(0, 4).join(','))).toEqual([
      'nord,failed,130,EXPORT_INTERRUPTED',
      'sued,failed,130,EXPORT_INTERRUPTED',
    ]);
  }, 180_000);

  it('writes the workbooks of several profiles in workers that stay, one per core at most, not in a worker per workbook', async () => {
    // a preloaded module notes what every thread of the export process runs
    const hook = path.join(home, 'threads-hook.mjs');
    const threads = path.join(home, 'threads.ndjson');
    await writeFile(
      hook,
      `import { appendFileSync } from 'node:fs';\nimport { workerData } from 'node:worker_threads';\nappendFileSync(${JSON.stringify(threads)}, JSON.stringify(workerData?.name ?? 'main') + '\\n');\n`,
    );
    const out = path.join(home, 'workbooks');
    const run = await runBin(
      ['export', '--year', '2025', ...FAST, '--profiles', 'nord,sued,spaet', '--format', 'xlsx', '--out', out, '--quiet'],
      { ...env, NODE_OPTIONS: `--import ${hook}` },
      { cwd: home, timeoutMs: 120_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    for (const p of ['nord', 'sued', 'spaet']) expect(await readdir(path.join(out, p))).toContain('billing.xlsx');
    const ran = (await readFile(threads, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as string);
    expect(ran.filter((r) => r === 'writeXlsx')).toEqual([]);
    const workers = ran.filter((r) => r === 'serveWorkbooks').length;
    expect(workers).toBeGreaterThanOrEqual(1);
    expect(workers).toBeLessThanOrEqual(Math.min(3, os.availableParallelism(), 4));
    expect(ran.filter((r) => r === 'portfolioInWorker')).toHaveLength(1);
  }, 180_000);
});
