import type { Clock } from './contracts.js';

/** A clock tests can move. It ticks with real time from wherever it was set. */
export interface MutableClock extends Clock {
  set(date: Date | string): void;
  advance(ms: number): void;
}

/** Parses `yyyy-mm-dd` (or a full ISO timestamp) strictly; throws a readable error otherwise. */
export function parseClockDate(value: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = m ? new Date(`${value}T00:00:00Z`) : new Date(value);
  if (Number.isNaN(date.getTime()) || (m && date.toISOString().slice(0, 10) !== value)) {
    throw new Error(`invalid clock date "${value}": use ISO 8601 yyyy-MM-dd, e.g. 2026-11-22`);
  }
  return date;
}

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
