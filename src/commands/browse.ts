// `meterdata browse`: the clerks' terminal UI. Ink and React load only here, and
// only after the checks that need no terminal, so `--help` and errors stay light.
import { UsageError } from '../core/errors.js';
import type { Io } from '../core/io.js';
import { rangeFromFlags } from '../tui/range.js';

export async function run(opts: Record<string, unknown>, io: Io): Promise<number> {
  const parsed = rangeFromFlags(opts, new Date());
  if (!parsed.ok) throw new UsageError(parsed.message, 'e.g. meterdata browse --year 2025');
  if (!io.stdout.isTTY || !io.stdin.isTTY) {
    throw new UsageError(
      '`meterdata browse` is interactive and needs a terminal, but its output is not one.',
      'For files or scripts use: meterdata export --year 2025',
      'USAGE_NOT_A_TERMINAL',
    );
  }
  const [{ openConnection }, { createApiClient }, billing, { createBrowseData, eventHub }, { runBrowser }] = await Promise.all([
    import('../auth/connection.js'),
    import('../api/client.js'),
    import('../billing/index.js'),
    import('../tui/data.js'),
    import('../tui/run.js'),
  ]);
  const connection = await openConnection({ ...(typeof opts.profile === 'string' ? { profile: opts.profile } : {}), env: io.env, signal: io.signal });
  const hub = eventHub();
  const api = createApiClient({ baseUrl: connection.baseUrl, credentials: connection.credentials, onEvent: hub.emit, signal: io.signal });
  const data = createBrowseData({ api, billProperty: billing.billProperty, flagText: billing.flagText, subscribe: hub.subscribe });
  try {
    await runBrowser(io, data, parsed.range);
  } finally {
    await api.close();
  }
  return 0;
}
