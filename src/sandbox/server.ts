// Composes the sandbox: authorization server at the root, the /v1 API, optional /admin,
// all on one 127.0.0.1 port. issuer = resource = origin; apiBase = origin + /v1.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdmin, createAdminHandler, type SandboxAdmin } from './admin.js';
import { createAuthServer } from './auth/index.js';
import { demoClient, loadClientsFile, validateClient, type ClientRegistration } from './clients.js';
import { createClock, type MutableClock } from './clock.js';
import type { Clock } from './contracts.js';
import { generateDataset, type Dataset } from './data/index.js';
import { createApi, parseFaultSpecs, RequestLog } from './api/index.js';

export type { SandboxAdmin } from './admin.js';
export type { ClientRegistration } from './clients.js';
export type { MutableClock } from './clock.js';

export interface SandboxOptions {
  /** Port on 127.0.0.1; 0 or unset: any free port. */
  port?: number;
  seed?: string | number;
  units?: number;
  /** Approve every consent as the demo landlord with all Properties of the first enabled tenant. */
  autoConsent?: boolean;
  /** With autoConsent: the tenant (id or name) consents are approved for, unless the client names its own (default: the first enabled one). */
  autoConsentTenant?: string;
  /** Start date (yyyy-mm-dd) or a clock; the sandbox clock ticks on from there. */
  clock?: string | Clock;
  /** Serve /admin/* (404 otherwise). */
  admin?: boolean;
  /** Extra registered clients (besides sandbox-demo-client). */
  clients?: ClientRegistration[];
  /** JSON clients file, see docs/sandbox.md. */
  clientsFile?: string;
  futureContract?: boolean;
  faults?: string[];
  /** /v1 requests per minute per connection (default 300; 0: off). */
  rateLimitPerMinute?: number;
  /** /oauth/* requests per minute per client and per caller address (default 60; 0: off). */
  oauthRateLimitPerMinute?: number;
  latencyMs?: [number, number];
}

export interface Sandbox {
  /** Origin, e.g. http://127.0.0.1:41234 */
  url: string;
  issuer: string;
  /** url + '/v1' */
  apiBase: string;
  /** RFC 8707 resource of the REST API (= url). */
  resource: string;
  clock: MutableClock;
  dataset: Dataset;
  log: RequestLog;
  admin: SandboxAdmin;
  close(): Promise<void>;
}

function toClock(c: SandboxOptions['clock']): MutableClock {
  if (c === undefined || typeof c === 'string') return createClock(c);
  if ('set' in c && 'advance' in c) return c as MutableClock;
  return createClock(c.now());
}

function notFound(res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ error: 'not_found', error_description: 'no such endpoint' }));
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const clock = toClock(opts.clock);
  const clients = [demoClient, ...(opts.clientsFile ? await loadClientsFile(opts.clientsFile) : []), ...(opts.clients ?? []).map(validateClient)];
  const dataset = generateDataset({ seed: opts.seed, units: opts.units });
  const faults = parseFaultSpecs(opts.faults ?? []);
  const log = new RequestLog();

  let route: (req: IncomingMessage, res: ServerResponse) => void | Promise<void> = (_req, res) => notFound(res);
  const server = createServer((req, res) => {
    Promise.resolve(route(req, res)).catch((err: unknown) => {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ error: 'server_error', error_description: (err as Error).message }));
      } else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // A clients file or option naming an unknown auto-consent tenant stops the start: close the port again.
  const auth = (() => {
    try {
      return createAuthServer({
        origin: url,
        clock,
        directory: dataset,
        clients,
        autoConsent: opts.autoConsent,
        autoConsentTenant: opts.autoConsentTenant,
        oauthRateLimitPerMinute: opts.oauthRateLimitPerMinute,
      });
    } catch (e) {
      server.close();
      throw e;
    }
  })();
  const api = createApi({
    dataset,
    tokens: auth.validator,
    clock,
    rateLimitPerMinute: opts.rateLimitPerMinute ?? 300,
    faults,
    futureContract: opts.futureContract,
    log,
    latencyMs: opts.latencyMs,
  });
  const admin = createAdmin(auth, clock);
  const adminHttp = createAdminHandler({ admin, directory: dataset, clock, log: () => log });

  route = (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/v1' || path.startsWith('/v1/')) return api(req, res);
    if (path === '/admin' || path.startsWith('/admin/')) return opts.admin ? adminHttp(req, res) : notFound(res);
    return auth.handle(req, res);
  };

  let closing: Promise<void> | undefined;
  return {
    url,
    issuer: auth.issuer,
    apiBase: `${url}/v1`,
    resource: auth.resource,
    clock,
    dataset,
    log,
    admin,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
