// How many Properties' answers are in memory at once, across the exports of one
// process (the portfolio export runs one per profile). A single export passes no
// slots and holds at most two (the one being written and the next one fetched).
import { t } from '../portfolio/index.js';

/** A counting semaphore; each release function works once. */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    this.free = size;
  }

  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next)
        next(); // the slot passes straight to the next waiter
      else this.free++;
    };
  }

  /** Slots in use (tests, the bench). */
  get inUse(): number {
    return this.size - this.free;
  }
}

/**
 * One export's share: a slot is taken before a Property is loaded or fetched and given
 * back once its rows are written, or when the export stops (then also by fetches still
 * in flight, so a failed profile never keeps slots the others wait for).
 */
export function heldProperties(slots: Slots | undefined) {
  const held = new Map<number, () => void>();
  let stopped = false;
  return {
    async take(i: number): Promise<void> {
      if (!slots) return;
      const release = await slots.acquire();
      if (stopped) {
        release();
        throw new Error(t.stoppedWaiting);
      }
      held.set(i, release);
    },
    release(i: number): void {
      held.get(i)?.();
      held.delete(i);
    },
    stop(): void {
      stopped = true;
      for (const release of held.values()) release();
      held.clear();
    },
  };
}
