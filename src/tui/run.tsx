// Mounts the browser on the command's streams and resolves when the user quits.
import { render } from 'ink';
import type { Io } from '../core/io.js';
import { App } from './app.js';
import type { BrowseData } from './data.js';
import type { DateRange } from './range.js';

export async function runBrowser(io: Io, data: BrowseData, range: DateRange): Promise<void> {
  // NO_COLOR (https://no-color.org): any non-empty value turns colour off.
  const color = !io.env.NO_COLOR;
  const app = render(<App data={data} range={range} color={color} />, {
    stdout: io.stdout as NodeJS.WriteStream,
    stdin: io.stdin as NodeJS.ReadStream,
    stderr: io.stderr as NodeJS.WriteStream,
    exitOnCtrlC: true,
    patchConsole: false,
    // browse has already refused a non-terminal stdout, so this is a person at a
    // terminal: Ink must not fall back to "final frame only" just because CI is set.
    interactive: true,
    alternateScreen: true,
  });
  const stop = () => app.unmount();
  io.signal.addEventListener('abort', stop, { once: true });
  try {
    await app.waitUntilExit();
  } finally {
    io.signal.removeEventListener('abort', stop);
  }
}
