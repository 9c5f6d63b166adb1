// `meterdata sandbox`: runs the local emulator until SIGINT/SIGTERM (io.signal).
import { ExitCode, MeterdataError, UsageError } from '../../core/errors.js';
import { write } from '../../core/io.js';
import { parseFaultSpecs } from '../../sandbox/api/index.js';
import { loadClientsFile } from '../../sandbox/clients.js';
import { sandboxTexts as t } from '../texts-sandbox.js';
import type { CommandContext } from '../context.js';
import type { SandboxFlags } from './index.js';

export async function run(opts: SandboxFlags, { io }: CommandContext): Promise<number> {
  const port = opts.port ?? 0;
  const faults = opts.fault ?? [];
  parseFaultSpecs(faults);
  let clients;
  if (opts.clients) {
    try {
      clients = await loadClientsFile(opts.clients);
    } catch (e) {
      throw new UsageError((e as Error).message, t.clientsHint);
    }
  }
  if (io.signal.aborted) return ExitCode.OK;

  const { startSandbox } = await import('../../sandbox/server.js');
  let sandbox;
  try {
    sandbox = await startSandbox({
      port,
      seed: opts.seed,
      units: opts.units,
      autoConsent: opts.autoConsent || opts.autoConsentTenant !== undefined,
      autoConsentTenant: opts.autoConsentTenant,
      clock: opts.clock,
      admin: opts.admin,
      clients,
      futureContract: opts.futureContract,
      faults,
      rateLimitPerMinute: opts.rateLimit,
      oauthRateLimitPerMinute: opts.oauthRateLimit,
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE')
      throw new MeterdataError(t.portInUse({ port }), { code: 'SANDBOX_PORT_IN_USE', exitCode: ExitCode.USAGE, hint: t.portInUseHint });
    if (err.code === 'SANDBOX_CLIENTS_INVALID') throw new UsageError(err.message, t.clientsHint);
    if (err.code === 'SANDBOX_TENANT_UNKNOWN') throw new UsageError(err.message, t.tenantHint, 'SANDBOX_TENANT_UNKNOWN');
    throw e;
  }
  write(io.stdout, `listening on ${sandbox.url}`);
  const consent = opts.autoConsentTenant !== undefined ? t.autoConsentTenant({ tenant: opts.autoConsentTenant }) : opts.autoConsent ? t.autoConsent : '';
  const extras = `${consent}${opts.admin ? t.admin : ''}`;
  write(io.stderr, t.started({ issuer: sandbox.issuer, apiBase: sandbox.apiBase, client: 'sandbox-demo-client', extras }));
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) return resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  write(io.stderr, t.stopped);
  return ExitCode.OK;
}
