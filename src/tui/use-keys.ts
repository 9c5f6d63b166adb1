// Keys reach the handler one per render (see keys.ts): "j" then Enter in one chunk
// opens the row j moved to, because Enter is mapped against the screen j left behind.
import { useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { splitKeys, type KeyPress } from './keys.js';

export function useKeys(onKey: (press: KeyPress) => void): void {
  const queue = useRef<KeyPress[]>([]);
  const [queued, setQueued] = useState(0);
  useInput((ch, key) => {
    queue.current.push(...splitKeys(ch, key));
    setQueued((n) => n + 1);
  });
  useEffect(() => {
    const next = queue.current.shift();
    if (!next) return;
    onKey(next);
    if (queue.current.length > 0) setQueued((n) => n + 1);
    // `onKey` is new every render; the queue says when to run.
  }, [queued]);
}
