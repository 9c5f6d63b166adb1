// Keys that arrive in one input chunk ("j\r" from tmux send-keys, text + Enter from
// a paste or a fast typist) are split into single keys and handled one per render,
// so each sees the screen the key before left behind.
import type { Key } from 'ink';

export interface KeyPress {
  ch: string;
  key: Key;
}

const SPECIAL: (keyof Key)[] = [
  'upArrow',
  'downArrow',
  'leftArrow',
  'rightArrow',
  'pageUp',
  'pageDown',
  'home',
  'end',
  'escape',
  'ctrl',
  'meta',
  'tab',
  'backspace',
  'delete',
];

/** One press per character for plain text; a special key (arrows, Esc, Ctrl+x) stays as it came. */
export function splitKeys(ch: string, key: Key): KeyPress[] {
  if ([...ch].length <= 1 || SPECIAL.some((k) => key[k] === true)) return [{ ch, key }];
  return [...ch].map((c) => {
    const enter = c === '\r' || c === '\n';
    return { ch: enter ? '' : c, key: { ...key, return: enter, shift: /[A-Z]/.test(c) } };
  });
}
