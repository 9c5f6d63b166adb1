// The export's locks on a file system without hard links (FAT32/exFAT drives and some network
// shares on Windows answer link() with EPERM or ENOTSUP): the lock still works, by exclusive create.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// Every hard link this test file's code makes fails as on FAT32: the journal must not depend on it.
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    link: vi.fn(async () => {
      throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
    }),
  };
});

const { Journal } = await import('../../src/export/journal/journal.js');
const { placeLock } = await import('../../src/export/folder/locks.js');
const who = {
  tenant_id: '7c1d8f2e-0000-4000-8000-000000000001',
  tenant_name: 'Hausverwaltung Nordlicht GmbH',
  client_id: 'c',
  granted_scopes: [],
  property_scope: 'all' as const,
};
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'md-lockfs-'));

describe('export locks where the file system has no hard links', () => {
  it('placeLock falls back to an exclusive create for EPERM, ENOTSUP and ENOSYS, and still refuses a second holder', async () => {
    for (const code of ['EPERM', 'ENOTSUP', 'ENOSYS']) {
      const dir = tmp();
      const mine = path.join(dir, 'x.lock.1.tmp');
      const file = path.join(dir, 'x.lock');
      writeFileSync(mine, '{"pid":1}');
      const noLinks = async () => {
        throw Object.assign(new Error(code), { code });
      };
      await placeLock(mine, file, noLinks);
      expect(readFileSync(file, 'utf8')).toBe('{"pid":1}');
      await expect(placeLock(mine, file, noLinks)).rejects.toMatchObject({ code: 'EEXIST' });
    }
  });

  it('placeLock passes on every other failure of link (a missing folder is not a file-system limit)', async () => {
    const dir = tmp();
    const mine = path.join(dir, 'x.tmp');
    writeFileSync(mine, 'x');
    const denied = async () => {
      throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
    };
    await expect(placeLock(mine, path.join(dir, 'x.lock'), denied)).rejects.toMatchObject({ code: 'EACCES' });
    expect(existsSync(path.join(dir, 'x.lock'))).toBe(false);
  });

  it('one export per journal and per folder: a second open is refused, and works again once the first is closed', async () => {
    const state = tmp();
    const out = path.join(tmp(), 'out');
    const id = { from: '2025-01-01', to: '2025-12-31' };
    const first = await Journal.open(state, id, who, new Date('2026-11-23T10:00:00Z'), out);
    await expect(Journal.open(state, id, who, new Date('2026-11-23T10:00:01Z'), out)).rejects.toMatchObject({ code: 'EXPORT_ALREADY_RUNNING' });
    await expect(Journal.open(state, { ...id, to: '2025-06-30' }, who, new Date('2026-11-23T10:00:02Z'), out)).rejects.toMatchObject({
      code: 'EXPORT_OUT_BUSY',
    });
    await first.close();
    const again = await Journal.open(state, id, who, new Date('2026-11-23T10:00:03Z'), out);
    expect(again.resumed).toBe(true);
    await again.close();
  });
});
