// The portfolio's record of finished profiles with `finished` that is no object of objects
// ({"finished":5}, [], "x", null, an entry that is no object) was taken as it was: the next
// profile finished was assigned into it, which throws on a number or a text (that profile failed
// on every re-run) and is lost on a list. A damaged record reads as none: every profile is
// exported afresh and the record is written anew.
import { mkdtemp, readFile, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FinishedRecord } from '../../src/export/portfolio/portfolio-record.js';
import type { ProfileResult } from '../../src/export/portfolio/portfolio-summary.js';

const KEY = { out: '/srv/abrechnung', args: ['--year', '2025'] };
const ALPHA: ProfileResult = { profile: 'alpha', out: '/srv/abrechnung/alpha', outcome: 'exported', exitCode: 0, seconds: 1 };

const SHAPES: [string, unknown][] = [
  ['finished a number', { finished: 5 }],
  ['finished a list', { finished: [] }],
  ['finished a text', { finished: 'x' }],
  ['finished null', { finished: null }],
  ['the record a list', [{ finished: {} }]],
  ['an entry that is no object', { finished: { beta: 5 } }],
  ['an entry whose summary is no object', { finished: { beta: { profile: 'beta', summary: 'x' } } }],
];

describe('a damaged record of finished profiles', () => {
  it.each(SHAPES)('%s: read as none, and written anew when a profile finishes', async (_name, saved) => {
    const state = await mkdtemp(path.join(os.tmpdir(), 'md-record-'));
    const file = (await FinishedRecord.open(state, KEY)).file;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(saved));
    const rec = await FinishedRecord.open(state, KEY);
    expect(rec.finished).toEqual({});
    await rec.add(ALPHA);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ finished: { alpha: ALPHA } });
  });

  it('a sound one is read as it is', async () => {
    const state = await mkdtemp(path.join(os.tmpdir(), 'md-record-'));
    const first = await FinishedRecord.open(state, KEY);
    await first.add(ALPHA);
    expect((await FinishedRecord.open(state, KEY)).finished).toEqual({ alpha: ALPHA });
  });
});
