// The monthly information's letters as an output format (src/export/steps/uvi/formats.ts), drawn
// in this thread as a portfolio's profile draws them: each unit's own PDF, and its Property's
// combined PDF made from those drawings in the units' order, the bytes of drawing it again; after
// Ctrl-C no further letter is drawn and nothing is left behind.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtomicOutput } from '../../src/export/folder/index.js';
import type { Row, SinkContext, TableName, Template } from '../../src/export/output/index.js';
import { uviFormats } from '../../src/export/steps/uvi/index.js';
import { LETTERS_TABLE, type LetterFileRow } from '../../src/export/steps/uvi/formats.js';
import { letterFonts, letterModel, LetterPdf } from '../../src/uvi/letter/index.js';
import { aLetterInput } from '../helpers/uvi-letter-fixtures.js';

const createdAt = new Date('2025-12-05T06:00:00Z');
const NAMES = ['WE 01', 'WE 02 Öztürk', 'WE 03'];

async function openLetters(signal?: AbortSignal) {
  const dir = mkdtempSync(path.join(tmpdir(), 'uvi-letters-format-'));
  const atomic = new AtomicOutput(dir);
  await atomic.prepare();
  const letters = uviFormats(async () => ({ fonts: await letterFonts(), createdAt, lang: 'de' }))[2]!;
  const sinks = await letters.open({ atomic, dir, signal, template: {} as Template } as SinkContext);
  return { dir, sinks };
}

const rows = (): LetterFileRow[] =>
  NAMES.map((name, i) => {
    const input = aLetterInput();
    return {
      file: `letter-${i}.pdf`,
      combined: 'letters-P.pdf',
      model: letterModel({ ...input, unit: { ...input.unit, name } }),
      last: i === NAMES.length - 1,
    };
  });

describe("the letters' format", () => {
  it("writes each unit's PDF and the Property's combined one, which is the letters drawn again in the units' order, byte for byte", async () => {
    const { dir, sinks } = await openLetters();
    const letters = rows();
    for (const r of letters) await sinks.row(LETTERS_TABLE as TableName, r as unknown as Row);
    const { files } = await sinks.stage({} as never);
    expect(files.map((f) => f.name).sort()).toEqual(['letter-0.pdf', 'letter-1.pdf', 'letter-2.pdf', 'letters-P.pdf']);
    const again = path.join(dir, 'again.pdf');
    const pdf = LetterPdf.open(again, { fonts: await letterFonts(), createdAt, lang: 'de', title: 'letters-P.pdf' });
    for (const r of letters) await pdf.add(r.model);
    await pdf.close();
    const combined = readdirSync(dir).find((n) => n.includes('letters-P.pdf'))!;
    expect(readFileSync(path.join(dir, combined)).equals(readFileSync(again))).toBe(true);
  });

  it('after Ctrl-C the next letter is refused with the signal’s reason; abort leaves no temporary file', async () => {
    const ctrl = new AbortController();
    const { dir, sinks } = await openLetters(ctrl.signal);
    const [first, second] = rows();
    await sinks.row(LETTERS_TABLE as TableName, first as unknown as Row);
    ctrl.abort(new Error('interrupted'));
    await expect(sinks.row(LETTERS_TABLE as TableName, second as unknown as Row)).rejects.toThrow('interrupted');
    expect(readdirSync(dir).filter((n) => n.includes('letter-1'))).toEqual([]);
    await sinks.abort?.();
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
