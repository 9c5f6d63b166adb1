// Whether an export lies anywhere below a uvi root (src/export/folder/manifest-kind.ts exportBelow): round 58 T5 found
// one in a month folder's sub-folder unlooked-for, round 60 V3 one past the 5,000 folders looked at, passed in silence.
import { mkdirSync, mkdtempSync, renameSync, rmdirSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportBelow, MANIFEST, manifestKind } from '../../src/export/folder/manifest-kind.js';
import { checkNotOtherCommand, checkOutDir } from '../../src/export/folder/out-folder.js';

const manifest = (template: string) => JSON.stringify({ identity: { template } });

function tree(folders: number): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'md-export-below-'));
  for (let m = 0; m < folders; m++) {
    const month = path.join(root, `2025-${String((m % 12) + 1).padStart(2, '0')}`, `p${m}`);
    mkdirSync(month, { recursive: true });
  }
  return root;
}

describe('an export below a uvi root', () => {
  it('is found at any depth, breadth first', () => {
    const root = tree(20);
    const deep = path.join(root, '2025-03', 'p2', 'a', 'b');
    mkdirSync(deep, { recursive: true });
    writeFileSync(path.join(deep, MANIFEST), manifest('billing-v1'));
    expect(exportBelow(root)).toBe(deep);
  });

  it('a root of more folders than are looked at is refused, naming the folder, never passed unlooked-at', () => {
    const root = tree(40);
    expect(() => exportBelow(root, 30)).toThrow(expect.objectContaining({ code: 'EXPORT_OUT_IN_USE', message: expect.stringContaining(root) }));
    expect(exportBelow(root, 100)).toBeNull();
  });

  it('a folder of more entries than a listing holds: refused by uvi and by an export, never looked past (round 61 W2)', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'md-export-below-wide-'));
    for (let i = 0; i < 10_001; i++) mkdirSync(path.join(root, `d${String(i).padStart(5, '0')}`));
    const refused = expect.objectContaining({
      code: 'EXPORT_OUT_IN_USE',
      message: expect.stringContaining('more than 10,000 folders below it, or entries in one folder'),
    });
    expect(() => exportBelow(root)).toThrow(refused);
    expect(() => checkNotOtherCommand(root, 'export')).toThrow(refused);
  }, 60_000);

  it('a month of more letters than a listing holds is no cut: the root is looked through, not refused (round 62 X3)', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'md-export-below-letters-'));
    const month = path.join(root, '2025-10');
    mkdirSync(month);
    writeFileSync(path.join(month, MANIFEST), manifest('uvi-letter-v1'));
    for (let i = 0; i < 10_050; i++) writeFileSync(path.join(month, `letter-${i}.pdf`), '');
    mkdirSync(path.join(month, 'zz-sub'));
    writeFileSync(path.join(month, 'zz-sub', MANIFEST), manifest('billing-v1'));
    expect(exportBelow(root)).toBe(path.join(month, 'zz-sub'));
  }, 60_000);

  it('a manifest over 1 MiB (a month of thousands of letters) is still told by its kind (round 61 W6)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-kind-big-'));
    const files = Array.from({ length: 12_000 }, (_, i) => ({ name: `Nutzeinheit ${i}.pdf`, sha256: 'ab'.repeat(32) }));
    const text = JSON.stringify({ identity: { template: 'uvi-letter-v1' }, files });
    expect(text.length).toBeGreaterThan(1 << 20);
    writeFileSync(path.join(dir, MANIFEST), text);
    expect(manifestKind(dir)).toBe('uvi');
  });

  it('a folder’s answer is kept while its manifest is unchanged, and read again once it is replaced', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'md-kind-'));
    writeFileSync(path.join(dir, MANIFEST), manifest('uvi-letter-v1'));
    expect(manifestKind(dir)).toBe('uvi');
    writeFileSync(path.join(dir, `${MANIFEST}.new`), manifest('billing-v1'));
    renameSync(path.join(dir, `${MANIFEST}.new`), path.join(dir, MANIFEST));
    expect(manifestKind(dir)).toBe('export');
  });

  it('a uvi root among 20,000 other folders is found from an export into it: refused, naming the root (round 62 X2)', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'md-uvi-root-wide-'));
    for (let i = 0; i < 20_000; i++) mkdirSync(path.join(root, `d${i}`));
    mkdirSync(path.join(root, '2025-10'));
    writeFileSync(path.join(root, '2025-10', MANIFEST), manifest('uvi-letter-v1'));
    expect(() => checkNotOtherCommand(path.join(root, 'exports'), 'export')).toThrow(
      expect.objectContaining({ code: 'EXPORT_OUT_IN_USE', message: expect.stringContaining(`lies in the folder of the monthly information (${root})`) }),
    );
  }, 60_000);

  it('a portfolio’s root of more folders than a listing holds, above an export: refused, never looked past (round 62 X2)', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'md-portfolio-wide-'));
    for (let i = 0; i < 10_001; i++) mkdirSync(path.join(root, `p${i}`));
    writeFileSync(path.join(root, 'portfolio-summary.csv'), '');
    expect(() => checkNotOtherCommand(path.join(root, 'p1', 'exports'), 'export')).toThrow(
      expect.objectContaining({
        code: 'EXPORT_OUT_IN_USE',
        message: expect.stringContaining(`${root} holds more than 10,000 folders`),
        // the file that makes it a portfolio's root, perhaps a leftover, named to move away (round 63 Y5)
        hint: expect.stringContaining(`${path.join(root, 'portfolio-summary.csv')} makes that folder count as a portfolio's root`),
      }),
    );
    // a parent of as many folders that is no portfolio's root (a /tmp) is looked through, not refused
    const plain = mkdtempSync(path.join(os.tmpdir(), 'md-plain-wide-'));
    for (let i = 0; i < 10_001; i++) mkdirSync(path.join(plain, `p${i}`));
    expect(() => checkNotOtherCommand(path.join(plain, 'p1', 'exports'), 'export')).not.toThrow();
  }, 60_000);

  it('through a link, an export into a uvi month and a uvi run into an export are refused as where they really go (round 63 Y2)', () => {
    const base = mkdtempSync(path.join(os.tmpdir(), 'md-linked-'));
    const month = path.join(base, 'uvi', '2025-11');
    mkdirSync(path.join(month, 'x'), { recursive: true });
    writeFileSync(path.join(month, MANIFEST), manifest('uvi-letter-v1'));
    symlinkSync(path.join(month, 'x'), path.join(base, 'L'));
    expect(() => checkNotOtherCommand(path.join(base, 'L', 'sub'), 'export')).toThrow(
      expect.objectContaining({ code: 'EXPORT_OUT_IN_USE', message: expect.stringContaining(`consumption information (${month})`) }),
    );
    const exported = path.join(base, 'export');
    mkdirSync(path.join(exported, 'sub'), { recursive: true });
    writeFileSync(path.join(exported, MANIFEST), manifest('billing-v1'));
    symlinkSync(path.join(exported, 'sub'), path.join(base, 'M'));
    expect(() => checkNotOtherCommand(path.join(base, 'M'), 'uvi')).toThrow(
      expect.objectContaining({ code: 'EXPORT_OUT_IN_USE', message: expect.stringContaining(`the folder of an export (${exported})`) }),
    );
  });

  it('a uvi root that the month folder this run makes takes past 50,000 folders is refused before any request (round 61 W3)', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'md-uvi-50000-'));
    for (let a = 0; a < 250; a++) for (let b = 0; b < 199; b++) mkdirSync(path.join(root, `a${a}`, `b${b}`), { recursive: true });
    rmdirSync(path.join(root, 'a0', 'b0')); // 49,999 folders below the root: its month folder makes 50,000
    const uvi = { template: 'uvi-letter-v1' };
    await expect(checkOutDir(path.join(root, '2025-11'), uvi, ['x.pdf'])).rejects.toMatchObject({ code: 'EXPORT_OUT_IN_USE' });
    rmdirSync(path.join(root, 'a0', 'b1')); // 49,998: passes now, and with its month folder at the commit's look
    await checkOutDir(path.join(root, '2025-11'), uvi, ['x.pdf']);
    mkdirSync(path.join(root, '2025-11'));
    expect(() => checkNotOtherCommand(root, 'uvi')).not.toThrow();
  }, 120_000);
});
