// `meterdata sandbox`: runs the local emulator until SIGINT/SIGTERM (io.signal).
import { ExitCode, MeterdataError, UsageError } from '../core/errors.js';
import { write, type Io } from '../core/io.js';
import { parseFaultSpecs } from '../sandbox/api/index.js';
import { loadClientsFile } from '../sandbox/clients.js';
import { parseClockDate } from '../sandbox/clock.js';

interface SandboxFlags {
  port?: string;
  seed?: string;
  units?: string;
  autoConsent?: boolean;
  clock?: string;
  admin?: boolean;
  clients?: string;
  futureContract?: boolean;
  fault?: string[];
  rateLimit?: string;
  oauthRateLimit?: string;
}

function wholeNumber(flag: string, value: string | undefined, min: number, max: number, example: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${value}".`, `Example: ${flag} ${example}`);
  return n;
}

export async function run(opts: SandboxFlags, io: Io): Promise<number> {
  const port = wholeNumber('--port', opts.port, 0, 65535, '0 (any free port)');
  const units = wholeNumber('--units', opts.units, 1, 50000, '60');
  const rateLimit = wholeNumber('--rate-limit', opts.rateLimit, 0, 1_000_000, '300 (0 turns the limit off)');
  const oauthRateLimit = wholeNumber('--oauth-rate-limit', opts.oauthRateLimit, 0, 1_000_000, '60 (0 turns the limit off)');
  if (opts.clock !== undefined) {
    try {
      parseClockDate(opts.clock);
    } catch (e) {
      throw new UsageError((e as Error).message, 'Example: --clock 2026-11-22');
    }
  }
  const faults = opts.fault ?? [];
  parseFaultSpecs(faults);
  let clients;
  if (opts.clients) {
    try {
      clients = await loadClientsFile(opts.clients);
    } catch (e) {
      throw new UsageError((e as Error).message, 'See docs/sandbox.md for the clients file format.');
    }
  }
  if (io.signal.aborted) return ExitCode.OK;

  const { startSandbox } = await import('../sandbox/server.js');
  let sandbox;
  try {
    sandbox = await startSandbox({
      port,
      seed: opts.seed,
      units,
      autoConsent: opts.autoConsent,
      clock: opts.clock,
      admin: opts.admin,
      clients,
      futureContract: opts.futureContract,
      faults,
      rateLimitPerMinute: rateLimit,
      oauthRateLimitPerMinute: oauthRateLimit,
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE')
      throw new MeterdataError(`Port ${port} on 127.0.0.1 is already in use.`, { code: 'SANDBOX_PORT_IN_USE', exitCode: ExitCode.USAGE, hint: 'Choose another --port, or --port 0 for any free port.' });
    if (err.code === 'SANDBOX_CLIENTS_INVALID') throw new UsageError(err.message, 'See docs/sandbox.md for the clients file format.');
    throw e;
  }
  write(io.stdout, `listening on ${sandbox.url}`);
  write(io.stderr, `auth_url ${sandbox.issuer}  base_url ${sandbox.apiBase}  client sandbox-demo-client${opts.autoConsent ? '  (auto-consent)' : ''}${opts.admin ? '  admin on /admin' : ''}`);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) return resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  write(io.stderr, 'sandbox stopped');
  return ExitCode.OK;
}
