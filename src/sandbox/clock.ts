import { parseClock } from '../core/dates.js';
import type { Clock } from './contracts.js';

/** A clock tests can move. It ticks with real time from wherever it was set. */
export interface MutableClock extends Clock {
  set(date: Date | string): void;
  advance(ms: number): void;
}

/**
 * `yyyy-mm-dd` (midnight UTC) or a full ISO 8601 timestamp, read by src/core/dates.ts like
 * every other date (same years, the message naming --clock); throws a UsageError otherwise.
 */
export const parseClockDate = parseClock;

/**
 * An offset over the real clock: set() and advance() shift the offset, so time keeps
 * flowing (DPoP proofs and rate-limit windows behave as in production) while tests
 * can jump 90 days ahead.
 */
export function createClock(start?: Date | string, realNow: () => number = Date.now): MutableClock {
  let offset = 0;
  const clock: MutableClock = {
    now: () => new Date(realNow() + offset),
    set(date) {
      const target = typeof date === 'string' ? parseClockDate(date) : date;
      offset = target.getTime() - realNow();
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new Error('advance needs a finite number of milliseconds');
      offset += ms;
    },
  };
  if (start !== undefined) clock.set(start);
  return clock;
}
