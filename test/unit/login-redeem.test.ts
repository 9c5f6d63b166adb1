// Login's code redemption and a stop (src/auth/login-flow.ts redeemed): a code is never sent once the run was told to
// stop; one on its way gets a second's grace for its answer, then the stop is told as an answer awaited.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { redeemed } from '../../src/auth/login-flow.js';
import { InterruptedError } from '../../src/core/errors.js';
import type { Io } from '../../src/core/io.js';

const ioWith = (signal: AbortSignal) => ({ signal, stderr: new PassThrough(), env: {} }) as unknown as Io;
const config = {} as Parameters<typeof redeemed>[0];
const notStored = (_sent: boolean, words: string) => new InterruptedError(words);
const stopped = () => {
  const c = new AbortController();
  c.abort(new InterruptedError('Interrupted by SIGINT.'));
  return c;
};

describe('redeemed', () => {
  it('stopped before the code is sent: not sent, the stop itself told', async () => {
    let sent = 0;
    const stop = stopped();
    const e = await redeemed(config, async () => (sent++, Promise.reject(new Error('never'))), ioWith(stop.signal), notStored).catch((x: unknown) => x);
    expect(sent).toBe(0);
    expect(e).toBe(stop.signal.reason);
  });

  it('stopped while the answer is on its way: an answer within the grace is used', async () => {
    const stop = new AbortController();
    const answer = { access_token: 'a' } as unknown as Awaited<ReturnType<Parameters<typeof redeemed>[1]>>;
    const p = redeemed(config, () => new Promise((r) => setTimeout(() => r(answer), 400)), ioWith(stop.signal), notStored);
    setTimeout(() => stop.abort(new InterruptedError('Interrupted by SIGINT.')), 50);
    expect(await p).toBe(answer);
  });

  it('stopped while the answer is on its way: none within the grace, told as awaited', async () => {
    const stop = new AbortController();
    const p = redeemed(config, () => new Promise(() => undefined), ioWith(stop.signal), notStored);
    setTimeout(() => stop.abort(new InterruptedError('Interrupted by SIGINT.')), 50);
    await expect(p).rejects.toThrow(/answer to the code was awaited/);
  });
});
