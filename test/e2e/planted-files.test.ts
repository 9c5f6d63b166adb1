// Files meterdata reads back, replaced by someone who may write into a shared folder: a FIFO
// (whose reader waits for a writer forever), /dev/zero (which never ends) or a huge sparse
// file. The built binary must refuse each at once with exit 2 and one line naming the file;
// a run that has not ended by itself within seconds is sent SIGTERM (and then SIGKILL), so a
// hang fails the test instead of stalling it.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN } from '../helpers/bin.js';
import { pageOf, startFakeApi, type FakeApi } from '../helpers/fake-api-server.js';
import { aProperty, aWhoAmI } from '../helpers/builders.js';

const servers: FakeApi[] = [];
beforeAll(() => assertBuilt());
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

type Planted = 'fifo' | '/dev/zero' | 'huge';

/** Puts `kind` at `file` in place of the file meterdata wrote there. */
function plant(file: string, kind: Planted): void {
  mkdirSync(path.dirname(file), { recursive: true });
  if (kind === 'fifo') execFileSync('mkfifo', [file]);
  else if (kind === '/dev/zero') symlinkSync('/dev/zero', file);
  else {
    writeFileSync(file, '');
    truncateSync(file, 3 * 1024 ** 3); // sparse: 3 GiB of zeros that take no room
  }
}

/** Runs the binary against a fake API (static token); SIGTERM after `endByMs` if it has not ended, SIGKILL 5 s later. */
async function run(args: string[], home: string, endByMs = 8_000) {
  const api = await startFakeApi();
  servers.push(api);
  api.route('/v1/whoami', { json: aWhoAmI() });
  api.route('/v1/properties', pageOf([aProperty()], null));
  const env = { PATH: process.env.PATH, HOME: home, METERDATA_HOME: home, METERDATA_ACCESS_TOKEN: 'static-token', METERDATA_BASE_URL: api.baseUrl };
  const child = spawn(process.execPath, [BIN, ...args], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let signalled = false;
  const term = setTimeout(() => {
    signalled = true;
    child.kill('SIGTERM');
  }, endByMs);
  const kill = setTimeout(() => child.kill('SIGKILL'), endByMs + 5_000);
  const code = await done;
  clearTimeout(term);
  clearTimeout(kill);
  return { code, stderr, signalled };
}

const kinds: [Planted, RegExp][] = [
  ['fifo', /it is not a plain file \(a pipe or a device\?\)/],
  ['/dev/zero', /it is not a plain file \(a pipe or a device\?\)/],
  ['huge', /it is larger than 1 MiB, far more than any such file holds/],
];

describe('the manifest in --out', () => {
  it.each(kinds)(
    'a %s in its place: exit 2 at once naming it, nothing waited on',
    async (kind, why) => {
      const home = await mkdtemp(path.join(os.tmpdir(), 'md-planted-'));
      plant(path.join(home, 'out', 'meterdata-manifest.json'), kind);
      const r = await run(['export', '--year', '2025', '--out', 'out'], home);
      expect(r.signalled, r.stderr).toBe(false);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^meterdata: --out \S+\/out holds meterdata-manifest\.json, which cannot be an export's manifest: /m);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
    30_000,
  );
});

describe('the folder of --compare', () => {
  /** A folder whose manifest lists billing.csv (the manifest of tenant aWhoAmI()), with `kind` at `at`. */
  async function compareFolder(at: 'manifest' | 'listed', kind: Planted) {
    const home = await mkdtemp(path.join(os.tmpdir(), 'md-planted-'));
    const dir = path.join(home, 'earlier');
    const manifest = {
      tool: 'meterdata',
      identity: { template: 'generic' },
      tenant: { id: aWhoAmI().tenant_id },
      range: { from: '2024-01-01', to: '2024-12-31' },
      files: [{ name: 'billing.csv', bytes: 100, sha256: '0'.repeat(64) }],
    };
    if (at === 'manifest') plant(path.join(dir, 'meterdata-manifest.json'), kind);
    else {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'meterdata-manifest.json'), JSON.stringify(manifest));
      plant(path.join(dir, 'billing.csv'), kind);
    }
    return run(['export', '--year', '2025', '--compare', dir, '--out', 'out'], home);
  }

  it.each(kinds)(
    'a %s as its manifest: exit 2 at once naming it',
    async (kind, why) => {
      const r = await compareFolder('manifest', kind);
      expect(r.signalled, r.stderr).toBe(false);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--compare .*earlier: meterdata-manifest\.json cannot be a meterdata manifest: /);
      expect(r.stderr).toMatch(why);
    },
    30_000,
  );

  it.each(kinds)(
    'a %s as a file the manifest lists: exit 2 at once, "does not match the manifest"',
    async (kind) => {
      const r = await compareFolder('listed', kind);
      expect(r.signalled, r.stderr).toBe(false);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--compare .*earlier: billing\.csv does not match the manifest/);
    },
    30_000,
  );
});

describe('a socket or a link that leads round in a circle', () => {
  const sockets: Server[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });

  /** A socket (open(2) says ENXIO) or a link to itself (ELOOP) at `file`. */
  async function plantOther(file: string, kind: 'socket' | 'loop'): Promise<void> {
    mkdirSync(path.dirname(file), { recursive: true });
    if (kind === 'loop') return symlinkSync(path.basename(file), file);
    const server = createServer();
    sockets.push(server);
    await new Promise<void>((resolve) => server.listen(file, resolve));
  }

  // before: "unexpected failure (this is a bug …)" and a stack, exit 1
  it.each(['socket', 'loop'] as const)(
    'a %s as config.json: exit 2 naming the file, no stack',
    async (kind) => {
      const home = await mkdtemp(path.join(os.tmpdir(), 'md-planted-'));
      await plantOther(path.join(home, 'config', 'config.json'), kind);
      const r = await run(['export', '--year', '2025', '--out', 'out'], home);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^meterdata: The configuration file \S+config\.json cannot be used: it is not a plain file/m);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
    30_000,
  );

  it.each(['socket', 'loop'] as const)(
    'a %s as the manifest in --out: exit 2 naming it',
    async (kind) => {
      const home = await mkdtemp(path.join(os.tmpdir(), 'md-planted-'));
      await plantOther(path.join(home, 'out', 'meterdata-manifest.json'), kind);
      const r = await run(['export', '--year', '2025', '--out', 'out'], home);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^meterdata: --out \S+\/out holds meterdata-manifest\.json, which cannot be an export's manifest: it is not a plain file/m);
    },
    30_000,
  );
});
