// A tmux pane of a tmux server of the test's own (never anyone's sessions), polled and
// typed into as a person would, for the end-to-end tests of `meterdata browse`.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `tmux` on the server named `socket`. */
export function tmuxOn(socket: string) {
  return (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
}

/** The pane of `session`; `save` keeps a capture under `panesDir` (for docs/browse.md). */
export function terminal(tmux: ReturnType<typeof tmuxOn>, session: string, panesDir: string) {
  const pane = () => tmux('capture-pane', '-p', '-t', session);
  return {
    pane,
    /** Polls the pane every 100 ms, for at most `seconds`, until `pred` holds. */
    async waitFor(pred: (p: string) => boolean, what: string, seconds = 15): Promise<string> {
      let last = '';
      for (let i = 0; i < seconds * 10; i++) {
        last = pane();
        if (pred(last)) return last;
        await sleep(100);
      }
      throw new Error(`the browser never showed ${what}; the pane was:\n${last}`);
    },
    /** One key (or one typed word) per send-keys, as a person would type. */
    async keys(...ks: string[]) {
      for (const k of ks) {
        tmux('send-keys', '-t', session, k);
        await sleep(200);
      }
    },
    /** Several keys in one send-keys: the program reads them as one chunk. */
    async chunk(...ks: string[]) {
      tmux('send-keys', '-t', session, ...ks);
      await sleep(200);
    },
    /** Keeps the pane as captured. */
    async save(name: string, text: string) {
      await mkdir(panesDir, { recursive: true });
      await writeFile(path.join(panesDir, `${name}.txt`), text);
    },
  };
}
