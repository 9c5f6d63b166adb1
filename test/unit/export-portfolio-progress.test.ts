// One progress display for the exports of several profiles.
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/core/io.js';
import { createPortfolioDisplay } from '../../src/export/portfolio/portfolio-progress.js';

function io(tty: boolean): { io: Io; text: () => string } {
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean };
  stderr.isTTY = tty;
  let text = '';
  stderr.on('data', (c: Buffer) => (text += c.toString('utf8')));
  return { io: { stdout: new PassThrough(), stderr, stdin: Readable.from([]), env: {}, cwd: '/', signal: new AbortController().signal }, text: () => text };
}

const prop = { index: 1, total: 3, name: 'Haus 1', units: 4, plantPoints: 1, flags: 0, fromJournal: false };

describe('portfolio progress', () => {
  it('on a terminal: one line per profile, redrawn in place', () => {
    let t = 0;
    const { io: tio, text } = io(true);
    const d = createPortfolioDisplay(tio, ['nord', 'sued-ost'], { quiet: false, now: () => t });
    const r = d.reporter('nord', () => 12);
    r.begin(3, 10);
    t += 1000;
    for (let i = 0; i < 4; i++) r.unit();
    r.property(prop);
    d.finish('nord', 'done');
    d.close();
    const out = text();
    expect(out).toContain('\x1b[2A\r\x1b[J'); // back up over the two profile lines
    const last = out.slice(out.lastIndexOf('\x1b[J') + 3).split('\n');
    expect(last[0]).toMatch(/^nord {6}4\/10 units · property 1\/3 · [\d.]+ req\/s · done$/);
    expect(last[1]).toMatch(/^sued-ost  0 units · property 0\/0 · 0\.0 req\/s · waiting$/);
  });

  it('off a terminal: a line per finished Property and per note, each naming its profile; nothing redraws', () => {
    const { io: pio, text } = io(false);
    const d = createPortfolioDisplay(pio, ['nord', 'sued'], { quiet: false });
    const r = d.reporter('sued', () => 0);
    r.begin(3, null);
    r.unit();
    r.property(prop);
    r.note('resuming the export');
    d.note('nord', 'warning: one\ntwo\n');
    d.close();
    expect(text()).toBe('sued: property 1/3 "Haus 1": 4 units, 1 plant point, 0 flags\nsued: resuming the export\nnord: warning: one\nnord: two\n');
  });

  it('--quiet: nothing', () => {
    const { io: qio, text } = io(false);
    const d = createPortfolioDisplay(qio, ['a'], { quiet: true });
    d.reporter('a', () => 0).property(prop);
    d.note('a', 'x');
    d.close();
    expect(text()).toBe('');
  });
});
