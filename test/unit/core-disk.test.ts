// A file of meterdata's own that the disk would not take, outside the export (config.json
// noted after a refresh by `status`, `token`, `browse`): DISK_WRITE_FAILED, one line naming
// the file and why and a hint, in both languages, exit 1 without a stack (cli.ts); every
// other error is left as it is.
import { afterEach, describe, expect, it } from 'vitest';
import { diskError, diskRefusal } from '../../src/core/disk.js';
import { formatError, MeterdataError } from '../../src/core/errors.js';
import { setLanguage } from '../../src/i18n/index.js';

const sysError = (code: string, file?: string) =>
  Object.assign(new Error(`${code}: something, write`), { code, syscall: 'write', ...(file ? { path: file } : {}) });

afterEach(() => setLanguage('en'));

describe('diskError', () => {
  it('a full disk under config.json: one line naming the file, the hint, exit 1, no stack', () => {
    const { text, exitCode } = formatError(diskError(sysError('ENOSPC', '/home/a/.config/meterdata/config.json')));
    expect(exitCode).toBe(1);
    expect(text).toBe(
      'meterdata: A file meterdata keeps could not be written (/home/a/.config/meterdata/config.json): the disk is full.\n  Free space on that disk (or make it writable again), then run the command again.',
    );
  });

  it('in German', () => {
    setLanguage('de');
    expect(formatError(diskError(sysError('EROFS'))).text).toBe(
      'meterdata: Eine Datei von meterdata konnte nicht geschrieben werden: das Dateisystem ist schreibgeschützt.\n  Bitte schaffen Sie auf diesem Datenträger Platz (bzw. machen Sie ihn wieder beschreibbar) und führen Sie den Befehl erneut aus.',
    );
  });

  it('names the code DISK_WRITE_FAILED and keeps the system’s code', () => {
    expect(diskError(sysError('EDQUOT', '/x'))).toMatchObject({ code: 'DISK_WRITE_FAILED', exitCode: 1, details: { errno: 'EDQUOT' } });
    expect(diskRefusal(sysError('EIO'))).toEqual({ why: 'the disk reported an input/output error', file: null, errno: 'EIO' });
  });

  // Round 32 F13: a letter's temporary name below an --out of ~4,000 bytes failed as "a bug", on every re-run.
  it('a path longer than the file system allows: named with the hint to choose a shorter --out, not a bug', () => {
    const e = diskError(sysError('ENAMETOOLONG', '/deep/..letter-x.pdf.partial.1.2.ab.tmp'));
    expect(e).toMatchObject({ code: 'DISK_WRITE_FAILED', exitCode: 1, details: { errno: 'ENAMETOOLONG' } });
    expect(formatError(e).text).toBe(
      'meterdata: A file meterdata keeps could not be written (/deep/..letter-x.pdf.partial.1.2.ab.tmp): its path is longer than the file system allows.\n  Choose a folder with a shorter path (--out), then run the command again.',
    );
  });

  it('leaves every other error alone: a bug keeps its stack', () => {
    for (const e of [
      new Error('boom'),
      sysError('ECONNRESET'),
      sysError('ENOENT', '/x'),
      sysError('hasOwnProperty'),
      new MeterdataError('x', { code: 'FILE_IN_USE', exitCode: 5 }),
      'ENOSPC',
      null,
      { code: 'ENOSPC' },
    ])
      expect(diskError(e)).toBeNull();
    expect(formatError(new Error('boom')).text).toMatch(/^meterdata: .*\n.*Error: boom/s);
  });
});
