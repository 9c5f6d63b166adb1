// One folder under two paths that no link joins: a bind mount, or a file system mounted twice. The looks for the other
// command's folders run from every path of --out (round 64 Z4: an export through a bind mount committed inside the
// monthly information's folders).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { checkNotOtherCommand } from '../../src/export/folder/out-folder.js';
import { aliasesIn, parseMountinfo, pathsOf } from '../../src/export/folder/mount-aliases.js';

const table = [
  '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
  '40 22 0:5 / /dev rw - devtmpfs udev rw',
  '41 22 254:0 /srv/a/R/2025-11/deep /mnt/b rw,relatime shared:1 - ext4 /dev/vda rw',
  '42 22 254:0 /srv/with\\040space /mnt/sp rw - ext4 /dev/vda rw',
  '43 22 254:0 / /mnt/again rw - ext4 /dev/vda rw',
].join('\n');
const all = () => true;

describe('the other paths of a folder, from the mount table', () => {
  it('a bind mount of a sub-folder leads back to its place, and the whole file system mounted again to both', () => {
    const mounts = parseMountinfo(table);
    expect(aliasesIn('/mnt/b/out', mounts, all)).toEqual(['/srv/a/R/2025-11/deep/out', '/mnt/again/srv/a/R/2025-11/deep/out']);
    expect(aliasesIn('/srv/a/R', mounts, all)).toEqual(['/mnt/again/srv/a/R']);
    expect(aliasesIn('/srv/a/R/2025-11/deep/x', mounts, all)).toEqual(['/mnt/again/srv/a/R/2025-11/deep/x', '/mnt/b/x']);
  });

  it('the mounts showing most of the file system come first, however many binds of the folder stand before them (round 67 F4)', () => {
    const binds = Array.from({ length: 100 }, (_, i) => `${50 + i} 22 254:0 /srv/a/R/2025-11/deep /mnt/b${i} rw - ext4 /dev/vda rw`);
    const mounts = parseMountinfo([...binds, '200 22 254:0 / /mnt/wide rw - ext4 /dev/vda rw'].join('\n'));
    const found = aliasesIn('/mnt/b0/out', mounts, all);
    expect(found[0]).toBe('/mnt/wide/srv/a/R/2025-11/deep/out');
    expect(found).toHaveLength(64);
  });

  it('decodes the table’s octal escapes, and keeps another device’s folders apart', () => {
    const mounts = parseMountinfo(table);
    expect(aliasesIn('/srv/with space/x', mounts, all)).toContain('/mnt/sp/x');
    expect(aliasesIn('/dev/shm', mounts, all)).toEqual([]);
  });

  it('a path that is not the same folder when looked at (shadowed by a later mount, or the table changed) is none', () => {
    expect(aliasesIn('/mnt/b/out', parseMountinfo(table), (a) => !a.startsWith('/mnt/again'))).toEqual(['/srv/a/R/2025-11/deep/out']);
  });

  it('an unreadable or odd table finds none', () => {
    expect(aliasesIn('/x', parseMountinfo('garbage\n\n1 2 3'), all)).toEqual([]);
  });
});

/** Root may bind-mount: locally another user skips with the reason printed; CI runs as root and must not skip. */
function requireRoot(ctx: TestContext): void {
  if (process.getuid?.() === 0) return;
  const reason = 'bind mounts need root (bash .ci/run runs as root)';
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}`);
  console.warn(`skipped: ${ctx.task.name}: ${reason}`);
  ctx.skip(reason);
}

describe('the looks for the other command’s folders, through a real bind mount', () => {
  const mounted: string[] = [];
  afterEach(() => {
    for (const m of mounted.splice(0)) execFileSync('umount', [m]);
  });
  const bind = (from: string, to: string) => {
    mkdirSync(to, { recursive: true });
    execFileSync('mount', ['--bind', from, to]);
    mounted.push(to);
  };
  const manifest = (dir: string, template: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'meterdata-manifest.json'), JSON.stringify({ identity: { template } }));
  };

  it('an export into a bind of a folder inside a uvi month is refused, naming the month', (ctx) => {
    requireRoot(ctx);
    const d = mkdtempSync(path.join(os.tmpdir(), 'md-bind-'));
    manifest(path.join(d, 'R', '2025-11'), 'uvi-letter-v1');
    mkdirSync(path.join(d, 'R', '2025-11', 'deep'));
    bind(path.join(d, 'R', '2025-11', 'deep'), path.join(d, 'b'));
    expect(pathsOf(path.join(d, 'b', 'out'))).toContain(path.join(d, 'R', '2025-11', 'deep', 'out'));
    expect(() => checkNotOtherCommand(path.join(d, 'b', 'out'), 'export')).toThrow(path.join(d, 'R', '2025-11'));
    expect(() => checkNotOtherCommand(path.join(d, 'elsewhere'), 'export')).not.toThrow();
    execFileSync('umount', [mounted.pop()!]);
    rmSync(d, { recursive: true });
  });

  it('a uvi root in a bind of a folder inside an export is refused, and an export into a bound uvi root', (ctx) => {
    requireRoot(ctx);
    const d = mkdtempSync(path.join(os.tmpdir(), 'md-bind-'));
    manifest(path.join(d, 'E'), 'generic');
    mkdirSync(path.join(d, 'E', 'sub'));
    bind(path.join(d, 'E', 'sub'), path.join(d, 'b'));
    expect(() => checkNotOtherCommand(path.join(d, 'b'), 'uvi')).toThrow(path.join(d, 'E'));
    manifest(path.join(d, 'U', 'R', '2025-11'), 'uvi-letter-v1');
    bind(path.join(d, 'U', 'R'), path.join(d, 'c'));
    expect(() => checkNotOtherCommand(path.join(d, 'c', 'exports'), 'export')).toThrow(path.join(d, 'c'));
    for (const m of mounted.splice(0).reverse()) execFileSync('umount', [m]);
    rmSync(d, { recursive: true });
  });
});
