// Text from the server a letter prints (names, the address, floor and position) is cut at
// LETTER_TEXT_MAX characters with "…": a 20,000-letter unit name beside a 21,000-letter street
// took minutes to lay out, and a signal waited for it. The letter stays milliseconds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { letterFonts, letterModel, writeLetter } from '../../src/uvi/letter/index.js';
import { aUnit } from '../helpers/builders.js';
import { aLetterInput } from '../helpers/uvi-letter-fixtures.js';

const hostile = () =>
  aLetterInput({
    property: { id: 'p', name: '漢'.repeat(5000) },
    unit: aUnit({ name: 'W'.repeat(20_000), floor: 'F'.repeat(5000), position: 'P'.repeat(5000) }),
    address: {
      street: `${'Straße '.repeat(3000)}\u202e\u0007`,
      house_number: '9'.repeat(3000),
      house_number_addition: null,
      postal_code: '1'.repeat(3000),
      city: 'C'.repeat(3000),
      country_code: 'DE',
    },
  });

describe('long text from the server on a letter', () => {
  it('each text is cut at 200 characters ending in "…", the address line too; short texts stay as sent', () => {
    const m = letterModel(hostile());
    const fact = (label: string) => m.facts.find(([l]) => l === label)![1];
    expect(fact('Nutzeinheit')).toBe(`${'W'.repeat(199)}…`);
    expect(fact('Liegenschaft')).toBe(`${'漢'.repeat(199)}…`);
    expect([...fact('Anschrift')].length).toBe(200);
    expect(fact('Anschrift')).toMatch(/^Straße Straße .*…$/);
    expect([...fact('Lage')].length).toBeLessThanOrEqual(2 * 200 + 20);
    expect(m.footer.length).toBeLessThan(600);
    expect(letterModel(aLetterInput()).facts[2]).toEqual(['Nutzeinheit', 'WE 03 Müller-Straße']);
  });

  it('the letter renders in well under a second', async () => {
    const d = mkdtempSync(path.join(tmpdir(), 'uvi-letter-long-'));
    try {
      const opts = { fonts: await letterFonts(), createdAt: new Date('2025-12-05T06:00:00Z'), title: 'x', lang: 'de' as const };
      await writeLetter(path.join(d, 'warm.pdf'), letterModel(aLetterInput()), opts);
      const t0 = performance.now();
      await writeLetter(path.join(d, 'long.pdf'), letterModel(hostile()), opts);
      // Measured: 120 ms on two busy cores; uncut, the run with this unit took 203 s.
      expect(performance.now() - t0).toBeLessThan(3000);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  }, 600_000);
});
