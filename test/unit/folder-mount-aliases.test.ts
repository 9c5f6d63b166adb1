// One folder under two paths that no link joins: a bind mount, or a file system mounted twice. The looks for the other
// command's folders run from every path of --out (round 64 Z4: an export through a bind mount committed inside the
// monthly information's folders).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { checkNotOtherCommand } from '../../src/export/folder/out-folder.js';
import { aliasesIn, parseMountinfo, pathsOf, type Mount } from '../../src/export/folder/mount-aliases.js';

const table = [
  '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
  '40 22 0:5 / /dev rw - devtmpfs udev rw',
  '41 22 254:0 /srv/a/R/2025-11/deep /mnt/b rw,relatime shared:1 - ext4 /dev/vda rw',
  '42 22 254:0 /srv/with\\040space /mnt/sp rw - ext4 /dev/vda rw',
  '43 22 254:0 / /mnt/again rw - ext4 /dev/vda rw',
].join('\n');
/** A folder's identity as the table makes it: its file system and its place there, through the mount that shows it. */
const idsOf =
  (mounts: Mount[], hidden: (p: string) => boolean = () => false) =>
  (p: string): string | null => {
    if (hidden(p)) return null;
    let home: Mount | undefined;
    for (const m of mounts) if ((p === m.at || p.startsWith(m.at === '/' ? '/' : `${m.at}/`)) && (!home || m.at.length >= home.at.length)) home = m;
    return home ? `${home.dev}:${path.posix.join(home.root, path.posix.relative(home.at, p))}` : null;
  };
const aliases = (real: string, mounts: Mount[], hidden?: (p: string) => boolean) => aliasesIn(real, mounts, idsOf(mounts, hidden)).paths;

describe('the other paths of a folder, from the mount table', () => {
  it('a bind mount of a sub-folder leads back to its place, and the whole file system mounted again to both', () => {
    const mounts = parseMountinfo(table);
    expect(aliases('/mnt/b/out', mounts)).toEqual(['/srv/a/R/2025-11/deep/out', '/mnt/again/srv/a/R/2025-11/deep/out']);
    expect(aliases('/srv/a/R', mounts)).toEqual(['/mnt/again/srv/a/R']);
    expect(aliases('/srv/a/R/2025-11/deep/x', mounts)).toEqual(['/mnt/b/x', '/mnt/again/srv/a/R/2025-11/deep/x']);
  });

  it('decodes the table’s octal escapes, and keeps another device’s folders apart', () => {
    const mounts = parseMountinfo(table);
    expect(aliases('/srv/with space/x', mounts)).toContain('/mnt/sp/x');
    expect(aliases('/dev/shm', mounts)).toEqual([]);
  });

  it('a path that is not the same folder when looked at (shadowed by a later mount, or the table changed) is none', () => {
    expect(aliases('/mnt/b/out', parseMountinfo(table), (p) => p.startsWith('/mnt/again'))).toEqual(['/srv/a/R/2025-11/deep/out']);
  });

  it('an unreadable or odd table finds none', () => {
    expect(aliases('/x', parseMountinfo('garbage\n\n1 2 3'))).toEqual([]);
  });

  it('paths that would see the same folders above are looked at once, however many stand before the one that differs (round 67 F4, round 68 G4)', () => {
    const wide = Array.from({ length: 300 }, (_, i) => `${100 + i} 22 254:0 / /srv/c/c${i} rw - ext4 /dev/vda rw`);
    const mounts = parseMountinfo([table.split('\n')[0], ...wide, '900 22 254:0 /srv/a/R/2025-11/deep /srv/m/2025-11/deep rw - ext4 /dev/vda rw'].join('\n'));
    const found = aliases('/srv/a/R/2025-11/deep/out', mounts);
    expect(found).toEqual(['/srv/c/c0/srv/a/R/2025-11/deep/out', '/srv/m/2025-11/deep/out']);
  });

  it('a folder bound (recursively) into a uvi month is one inode under two paths: each path is looked up (round 69 H2)', () => {
    const mounts = parseMountinfo(
      [
        table.split('\n')[0],
        '50 22 0:50 / /x/p/m1 rw - tmpfs tmpfs rw',
        '51 22 254:0 /x/p /R/2025-11/y rw - ext4 /dev/vda rw',
        '52 51 0:50 / /R/2025-11/y/m1 rw - tmpfs tmpfs rw',
      ].join('\n'),
    );
    expect(aliases('/x/p/m1/out', mounts)).toEqual(['/R/2025-11/y/m1/out']);
  });

  it('more than 256 paths leading to different folders above: cut, for the caller to refuse', () => {
    const many = Array.from({ length: 300 }, (_, i) => `${100 + i} 22 254:0 / /srv/c${i}/x rw - ext4 /dev/vda rw`);
    const mounts = parseMountinfo([table.split('\n')[0], ...many].join('\n'));
    const result = aliasesIn('/srv/a/out', mounts, idsOf(mounts));
    expect(result).toMatchObject({ cut: true });
    expect(result.paths).toHaveLength(256);
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
    expect(pathsOf(path.join(d, 'b', 'out'), 'x')).toContain(path.join(d, 'R', '2025-11', 'deep', 'out'));
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
