// `c` on the Properties list: loads every Property not loaded yet, one at a time,
// through the same BrowseData (so the same paced client and cache), and lets the
// list fill in its flag counts as they arrive. Navigation never waits for it.
import { useEffect, useRef, useState } from 'react';
import type { Property } from '../api/types.js';
import type { BrowseData } from './data.js';
import { describeError } from './errors.js';
import { rangeKey, type DateRange } from './range.js';
import { t } from './texts.js';

export interface FlagCountState {
  running: boolean;
  /** Properties of the list whose flags are counted, those counted before `c` included. */
  done: number;
  /** Every Property of the list, so the message counts what the list shows. */
  total: number;
  /** Properties this run had to load (0: all were counted already). */
  todo: number;
  failed: string[];
  stopped: boolean;
}

export function useFlagCount(data: BrowseData, range: DateRange) {
  const [state, setState] = useState<FlagCountState | null>(null);
  const stopRef = useRef<(() => void) | null>(null);

  const stop = () => {
    if (!stopRef.current) return false;
    stopRef.current();
    stopRef.current = null;
    setState((s) => s && { ...s, running: false, stopped: true });
    return true;
  };
  // Counts belong to a range: a new range stops a count of the old one.
  useEffect(() => () => void stop(), [rangeKey(range)]);

  const start = (properties: Property[]) => {
    if (stopRef.current) return;
    const todo = properties.filter((p) => data.cachedFlags(p.id, range) === null);
    let stopped = false;
    stopRef.current = () => {
      stopped = true;
    };
    const failed: string[] = [];
    const total = properties.length;
    const before = total - todo.length;
    setState({ running: todo.length > 0, done: before, total, todo: todo.length, failed, stopped: false });
    void (async () => {
      for (const [i, p] of todo.entries()) {
        if (stopped) return;
        try {
          await data.loadProperty(p, range);
        } catch (e) {
          failed.push(`${p.name}: ${describeError(e).title}`);
        }
        if (stopped) return;
        setState({ running: i + 1 < todo.length, done: before + i + 1, total, todo: todo.length, failed: [...failed], stopped: false });
      }
      stopRef.current = null;
    })();
  };

  return {
    state,
    start,
    stop,
    active: () => stopRef.current !== null,
    text: () => countText(state),
    dismiss: () => setState((s) => (s && s.running ? s : null)),
  };
}

/** The status line while and after counting. */
export function countText(state: FlagCountState | null): string | null {
  if (!state) return null;
  const of = t.countOf({ done: state.done - state.failed.length, total: state.total });
  if (state.running) return t.counting({ of });
  if (state.stopped) return t.countStopped({ of });
  const fails = state.failed.length ? t.countFailed({ n: state.failed.length, list: state.failed.join('; ') }) : '';
  return state.todo === 0 ? t.countAll : t.counted({ of, fails });
}
