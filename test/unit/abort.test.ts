// unlessAborted (src/core/abort.ts): a wait for an answer that may never come ends at Ctrl-C; nothing starts after it.
import { describe, expect, it } from 'vitest';
import { stoppedBy, unlessAborted } from '../../src/core/abort.js';

describe('unlessAborted', () => {
  it('starts nothing once the signal has aborted (round 36b F8: a revocation went out after "stopped")', async () => {
    const stop = new AbortController();
    const reason = new Error('Interrupted by SIGINT.');
    stop.abort(reason);
    let started = 0;
    const e = await unlessAborted(async () => void started++, stop.signal).catch((x: unknown) => x);
    expect([e, started, stoppedBy(e, stop.signal)]).toEqual([reason, 0, true]);
  });

  it('ends the wait at the abort; the work failing afterwards is no unhandled rejection (round 36b F8: exit 1)', async () => {
    const stop = new AbortController();
    let fail!: (e: Error) => void;
    const unhandled: unknown[] = [];
    const note = (r: unknown) => unhandled.push(r);
    process.on('unhandledRejection', note);
    try {
      const waiting = unlessAborted(() => new Promise<void>((_, reject) => (fail = reject)), stop.signal);
      stop.abort(new Error('stop'));
      await expect(waiting).rejects.toThrow('stop');
      fail(new Error('ECONNREFUSED after the stop'));
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });

  it('gives the work’s own result or failure where no signal came', async () => {
    const signal = new AbortController().signal;
    expect(await unlessAborted(async () => 7, signal)).toBe(7);
    const e = await unlessAborted(async () => Promise.reject(new Error('503')), signal).catch((x: unknown) => x);
    expect([(e as Error).message, stoppedBy(e, signal)]).toEqual(['503', false]);
  });
});
