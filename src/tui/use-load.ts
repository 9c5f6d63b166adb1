// Loads a value for a key without ever blocking the UI: the screen draws a loading
// state, a stale answer (the user already moved on) is dropped, and a failure
// becomes a state instead of an exception.
import { useEffect, useRef, useState } from 'react';

export type LoadState<T> = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: unknown };

export function useLoad<T>(key: string | null, load: () => Promise<T>, nonce: number): LoadState<T> {
  const done = useRef(new Map<string, T>());
  const [state, setState] = useState<{ key: string | null; nonce: number; s: LoadState<T> }>({ key: null, nonce, s: { status: 'idle' } });
  useEffect(() => {
    if (key === null) return;
    if (done.current.has(key)) return;
    let live = true;
    setState({ key, nonce, s: { status: 'loading' } });
    load().then(
      (value) => {
        done.current.set(key, value);
        if (live) setState({ key, nonce, s: { status: 'ready', value } });
      },
      (error: unknown) => {
        if (live) setState({ key, nonce, s: { status: 'error', error } });
      },
    );
    return () => {
      live = false;
    };
    // `load` changes every render; the key says when the value changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, nonce]);
  if (key === null) return { status: 'idle' };
  const cached = done.current.get(key);
  if (cached !== undefined && !(state.key === key && state.s.status === 'loading')) return { status: 'ready', value: cached };
  if (state.key !== key) return { status: 'loading' };
  return state.s;
}
