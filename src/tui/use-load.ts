// Loads a value for a key without ever blocking the UI: the screen draws a loading
// state, a stale answer (the user already moved on) is dropped, and a failure
// becomes a state instead of an exception.
import { useEffect, useRef, useState } from 'react';
import type { Property } from '../api/types.js';
import type { BrowseData, LoadProgress, PropertyBundle } from './data.js';
import { rangeKey, type DateRange } from './range.js';
import type { Month } from '../uvi/index.js';
import { loadUvi, type UviView } from './uvi.js';

export type LoadState<T> = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: unknown };

export function useLoad<T>(key: string | null, load: () => Promise<T>, nonce: number | string): LoadState<T> {
  // What was last shown per key: drawn at once when the user comes back, while the
  // load runs again underneath (BrowseData answers from its cache, after re-checking
  // the grant when the token changed) and may still turn it into an error.
  const shown = useRef(new Map<string, T>());
  const [state, setState] = useState<{ key: string | null; s: LoadState<T> }>({ key: null, s: { status: 'idle' } });
  useEffect(() => {
    if (key === null) return;
    let live = true;
    const had = shown.current.get(key);
    setState({ key, s: had === undefined ? { status: 'loading' } : { status: 'ready', value: had } });
    load().then(
      (value) => {
        shown.current.set(key, value);
        if (live) setState({ key, s: { status: 'ready', value } });
      },
      (error: unknown) => {
        shown.current.delete(key);
        if (live) setState({ key, s: { status: 'error', error } });
      },
    );
    return () => {
      live = false;
    };
    // `load` changes every render; the key (and a retry's nonce) say when to load again.
  }, [key, nonce]);
  if (key === null) return { status: 'idle' };
  if (state.key !== key) {
    const had = shown.current.get(key);
    return had === undefined ? { status: 'loading' } : { status: 'ready', value: had };
  }
  return state.s;
}

/** One Property over a range, billed, with the progress of its units while it loads. */
export function useBundle(
  data: BrowseData,
  property: Property | undefined,
  range: DateRange,
  reloads: number,
): { state: LoadState<PropertyBundle>; progress: LoadProgress | null } {
  const [progress, setProgress] = useState<LoadProgress | null>(null);
  const key = property ? `${property.id}|${rangeKey(range)}` : null;
  const state = useLoad(
    key,
    () => {
      setProgress(null);
      return data.loadProperty(property!, range, setProgress);
    },
    reloads,
  );
  return { state, progress };
}

/** A unit's monthly information: the Property over the 13 months ending with `month` (see uvi.ts), with the unit progress. */
export function useUviLoad(
  data: BrowseData,
  property: Property | undefined,
  month: Month | null,
  reloads: number,
): { state: LoadState<UviView>; progress: LoadProgress | null } {
  const [progress, setProgress] = useState<LoadProgress | null>(null);
  const key = property && month ? `${property.id}|uvi|${month}` : null;
  const state = useLoad(
    key,
    () => {
      setProgress(null);
      return loadUvi(data, property!, month!, setProgress);
    },
    reloads,
  );
  return { state, progress };
}
