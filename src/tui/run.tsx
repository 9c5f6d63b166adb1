// Mounts the browser on the command's streams and resolves when the user quits (q) or
// interrupts it (Ctrl-C, SIGINT, SIGTERM), saying which.
import { render, useInput } from 'ink';
import type { ReactNode } from 'react';
import type { Io } from '../core/io.js';
import { App } from './app.js';
import type { BrowseData } from './data.js';
import type { DateRange } from './range.js';

/** Ctrl-C typed in the browser (raw mode: a key, not a signal) interrupts like the signal does. */
function Interruptible(props: { onInterrupt: () => void; children: ReactNode }) {
  useInput((input, key) => {
    if (key.ctrl && input === 'c') props.onInterrupt();
  });
  return <>{props.children}</>;
}

/** `rangeChosen`: the range came from --year or --from/--to (the monthly information then ends with its last month); `today`: the command's clock. */
export async function runBrowser(
  io: Io,
  data: BrowseData,
  range: DateRange,
  opts: { rangeChosen?: boolean; today?: Date } = {},
): Promise<'quit' | 'interrupted'> {
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    app.unmount();
  };
  // NO_COLOR (https://no-color.org): any non-empty value turns colour off.
  const color = !io.env.NO_COLOR;
  const app = render(
    <Interruptible onInterrupt={interrupt}>
      <App data={data} range={range} color={color} rangeChosen={opts.rangeChosen ?? false} {...(opts.today ? { today: opts.today } : {})} />
    </Interruptible>,
    {
      stdout: io.stdout as NodeJS.WriteStream,
      stdin: io.stdin as NodeJS.ReadStream,
      stderr: io.stderr as NodeJS.WriteStream,
      exitOnCtrlC: false,
      patchConsole: false,
      // browse has already refused a non-terminal stdout, so this is a person at a
      // terminal: Ink must not fall back to "final frame only" just because CI is set.
      interactive: true,
      alternateScreen: true,
    },
  );
  io.signal.addEventListener('abort', interrupt, { once: true });
  try {
    await app.waitUntilExit();
  } finally {
    io.signal.removeEventListener('abort', interrupt);
  }
  return interrupted || io.signal.aborted ? 'interrupted' : 'quit';
}
