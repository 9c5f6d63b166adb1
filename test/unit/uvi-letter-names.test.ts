// The letters' file names: what a clerk finds a flat by (its Property's and its own name) and
// the start of a hash of its id, never a path or a control character, whatever the server sends.
import { describe, expect, it } from 'vitest';
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
});
