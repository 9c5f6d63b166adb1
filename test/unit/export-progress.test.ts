import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/core/io.js';
import { createReporter } from '../../src/export/progress.js';

function io(tty: boolean) {
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean };
  stderr.isTTY = tty;
  let text = '';
  let writes = 0;
  stderr.on('data', (c: Buffer) => {
    text += c.toString();
    writes++;
  });
  const fake = { stdout: new PassThrough(), stderr, stdin: new PassThrough(), env: {}, cwd: '/', signal: new AbortController().signal } as unknown as Io;
  return { fake, out: () => text, writes: () => writes };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('progress', () => {
  it('on a terminal draws one bar line with units, rate and ETA, at most 10 times a second', async () => {
    const t = io(true);
    let now = 0;
    let requests = 0;
    const r = createReporter(t.fake, { quiet: false, requests: () => requests, now: () => now });
    r.begin(2, 100);
    for (let i = 0; i < 50; i++) {
      now += 20; // 50 units in one second
      requests += 1;
      r.unit();
    }
    await flush();
    expect(t.writes()).toBeLessThanOrEqual(1 + 11);
    expect(t.out()).toMatch(/\[#+-+\] 50\/100 units · property 0\/2 · 50\.0 req\/s · ETA 1s/);
    expect(t.out()).not.toContain('\n');
    r.end();
  });

  it('a Property from the journal counts its work on the bar (each unit twice with a fetched comparison)', async () => {
    const t = io(true);
    const r = createReporter(t.fake, { quiet: false, requests: () => 0, now: () => 0 });
    r.begin(2, 20);
    r.property({ index: 1, total: 2, name: 'A', units: 5, plantPoints: 0, flags: 0, fromJournal: true, work: 10 });
    r.note('x');
    expect(t.out()).toMatch(/10\/20 units · property 1\/2/);
    r.end();
  });

  it('off a terminal writes one line per Property and no bar', async () => {
    const t = io(false);
    const r = createReporter(t.fake, { quiet: false, requests: () => 0 });
    r.begin(12, null);
    r.unit();
    r.property({ index: 3, total: 12, name: 'Musterstraße 1-5', units: 48, plantPoints: 1, flags: 2, fromJournal: false });
    await flush();
    expect(t.out()).toBe('property 3/12 "Musterstraße 1-5": 48 units, 1 plant point, 2 flags\n');
  });

  it('--quiet writes nothing', async () => {
    const t = io(true);
    const r = createReporter(t.fake, { quiet: true, requests: () => 0 });
    r.begin(1, 1);
    r.unit();
    r.note('hello');
    r.end();
    await flush();
    expect(t.out()).toBe('');
  });

  it('a line after the end (a wait for another run’s commit) is written alone: the bar is not drawn again (round 65 A3)', async () => {
    const t = io(true);
    const r = createReporter(t.fake, { quiet: false, requests: () => 0, now: () => 0 });
    r.begin(1, 10);
    r.end();
    await flush();
    const before = t.out();
    r.note('Waiting for another meterdata run of this account');
    r.end();
    await flush();
    expect(t.out().slice(before.length)).toBe('Waiting for another meterdata run of this account\n');
  });
});
