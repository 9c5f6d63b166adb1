// The bound on refreshes a run sends (6 a minute, 5 after rejected tokens in 10 minutes) counts
// elapsed time, not the wall clock: a clock stepped back (NTP correcting a fast clock) must not keep
// past refreshes inside the window, and one stepped forward must not let a burst through.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_REFRESHES_PER_MINUTE, MAX_REJECTED_REFRESHES, RefreshBudget } from '../../src/auth/refresh-budget.js';

const LIFETIME_MS = 30_000;

beforeEach(() => vi.useFakeTimers({ toFake: ['Date', 'performance'] }));
afterEach(() => vi.useRealTimers());

describe('RefreshBudget', () => {
  it('30 s tokens, refreshed every 15 s for 10 minutes: never refused, whatever the clock does on the way', () => {
    const budget = new RefreshBudget('meterdata status');
    for (let i = 0; i < 40; i++) {
      if (i === 10) vi.setSystemTime(Date.now() - 5 * 60_000);
      if (i === 25) vi.setSystemTime(Date.now() - 45_000);
      expect(() => budget.sending(LIFETIME_MS), `refresh ${i + 1}`).not.toThrow();
      vi.advanceTimersByTime(15_000);
    }
  });

  it('a seventh refresh within a minute is refused, even when the clock jumped an hour ahead in between', () => {
    const budget = new RefreshBudget('meterdata status');
    for (let i = 0; i < MAX_REFRESHES_PER_MINUTE; i++) {
      if (i === 3) vi.setSystemTime(Date.now() + 3_600_000);
      budget.sending(LIFETIME_MS);
      vi.advanceTimersByTime(1_000);
    }
    expect(() => budget.sending(LIFETIME_MS)).toThrow(expect.objectContaining({ code: 'AUTH_REFRESH_TOO_OFTEN' }));
    vi.advanceTimersByTime(60_000);
    expect(() => budget.sending(LIFETIME_MS)).not.toThrow();
  });

  it('rejected tokens: the sixth within 10 minutes is refused, a clock stepped back an hour keeps none of them longer', () => {
    const budget = new RefreshBudget('meterdata status');
    for (let i = 0; i < MAX_REJECTED_REFRESHES; i++) budget.rejected();
    expect(() => budget.rejected()).toThrow(expect.objectContaining({ code: 'AUTH_TOKENS_REJECTED' }));
    vi.setSystemTime(Date.now() - 3_600_000);
    vi.advanceTimersByTime(10 * 60_000 + 1);
    expect(() => budget.rejected()).not.toThrow();
  });
});

describe('RefreshBudget.counting: the profile’s count, shared by every run through the record', () => {
  const rec = (times: unknown) => ({
    v: 1 as const,
    refresh_token: 'r',
    updated_at: new Date(Date.now() - LIFETIME_MS).toISOString(),
    access_expires_at: new Date().toISOString(),
    refreshes_sent: times,
  });
  const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();

  it('six within the minute from other runs: a fresh run’s first refresh is refused; one older than a minute is not counted', () => {
    const six = [50, 40, 30, 20, 10, 1].map(ago);
    expect(() => new RefreshBudget('s').counting(rec(six))).toThrow(expect.objectContaining({ code: 'AUTH_REFRESH_TOO_OFTEN' }));
    const counted = new RefreshBudget('s').counting(rec([61, 40, 30, 20, 10, 1].map(ago)));
    expect(counted.refreshes_sent).toHaveLength(MAX_REFRESHES_PER_MINUTE);
    expect((counted.refreshes_sent as string[]).at(-1)).toBe(new Date().toISOString());
  });

  it('times ahead of this clock (it was stepped back 5 minutes) are dropped, not kept inside the window', () => {
    const ahead = [300, 290, 280, 270, 260, 250].map((s) => ago(-s));
    expect(new RefreshBudget('s').counting(rec(ahead)).refreshes_sent).toEqual([new Date().toISOString()]);
  });
});
