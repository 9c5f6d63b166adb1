// The letters' file names: what a clerk finds a flat by (its Property's and its own name) and
// the start of a hash of its id, never a path or a control character, whatever the server sends.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { partialName } from '../../src/export/folder/index.js';
import { letterName } from '../../src/export/steps/uvi/index.js';

describe('letterName', () => {
  it('names the Property and the unit, then 8 hex digits of the id', () => {
    expect(letterName('letter', ['Rheinuferstraße 12', 'WE 01'], 'a')).toMatch(/^letter-Rheinuferstraße_12-WE_01-[0-9a-f]{8}\.pdf$/);
  });

  it('two flats of one name in one Property get two files', () => {
    expect(letterName('letter', ['Haus', 'WE 01'], 'id-1')).not.toBe(letterName('letter', ['Haus', 'WE 01'], 'id-2'));
  });

  it.each([
    ['a path', ['../../etc', 'x/y\\z']],
    ['control and bidi characters', ['Haus\u202e1', 'WE\n01\u0000']],
    ['nothing usable', ['', '...']],
  ])('%s: letters, digits, - and _ only, one file in the folder', (_what, names) => {
    const name = letterName('letter', names, 'id');
    expect(name).toMatch(/^letter-[\p{L}\p{N}_-]+\.pdf$/u);
    expect(name).not.toMatch(/\.\.|\/|\\/);
  });

  it('a long name is cut to 40 characters a part', () => {
    expect(letterName('letters', ['x'.repeat(200)], 'id')).toBe(`letters-${'x'.repeat(40)}-${letterName('letters', [], 'id').slice(8, 16)}.pdf`);
  });

  it('names in 3- and 4-byte letters are cut by UTF-8 bytes between characters, so the longest temporary name fits in 255 bytes', () => {
    // 60 CJK letters (180 bytes) a part made ENAMETOOLONG, a bug's exit 1 and no letters.
    const name = letterName('letter', ['漢'.repeat(60), `${'字'.repeat(60)}WE 01`], 'id');
    expect(name).toMatch(new RegExp(`^letter-${'漢'.repeat(26)}-${'字'.repeat(26)}-[0-9a-f]{8}\\.pdf$`, 'u'));
    const astral = letterName('letter', ['𠀀'.repeat(60), '😀WE𠀁'.repeat(30)], 'id');
    expect(astral).toMatch(new RegExp(`^letter-${'𠀀'.repeat(20)}-WE𠀁_`, 'u'));
    expect(astral).not.toMatch(/[\uD800-\uDFFF]/u); // no half of a 4-byte letter
    // The PDF writer's temporary name beside the folder's partial name (src/uvi/letter/write.ts), at its longest.
    for (const n of [name, astral, letterName('letters', ['漢'.repeat(60)], 'id')]) {
      const temp = `.${partialName(n)}.4194304.${'9'.repeat(13)}.${'z'.repeat(13)}.tmp`;
      expect(Buffer.byteLength(temp)).toBeLessThanOrEqual(255);
      const dir = mkdtempSync(path.join(tmpdir(), 'md-letter-name-'));
      try {
        writeFileSync(path.join(dir, temp), '');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
