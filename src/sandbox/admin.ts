// Operator controls for tests: the programmatic `sandbox.admin` and, with --admin, small
// JSON endpoints under /admin. They play the landlord portal and the operator.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthServer, Connection } from './auth/index.js';
import { readBody } from './auth/body.js';
import type { MutableClock } from './clock.js';
import type { Directory } from './contracts.js';

export interface SandboxAdmin {
  /** The landlord disconnects the application in the portal. Returns false for an unknown or already revoked sid. */
  disconnect(sid: string): Promise<boolean>;
  /** The landlord's API access ends: every connection of the tenant is revoked. Returns the revoked sids. */
  endAccess(tenantId: string): Promise<string[]>;
  /** Re-enables API access; revoked connections stay revoked. */
  enableAccess(tenantId: string): void;
  /** All connections; idle ones (90 days) are revoked first, as production would have done. */
  connections(): Connection[];
  /** Revokes every open connection; returns how many. */
  revokeAll(): Promise<number>;
  /** Moves the sandbox clock; returns the new time. */
  advanceClock(ms: number): Date;
  setClock(date: Date | string): Date;
}

export function createAdmin(auth: AuthServer, clock: MutableClock): SandboxAdmin {
  return {
    disconnect: (sid) => auth.revokeConnection(sid, 'the landlord disconnected the application in the portal'),
    endAccess: async (tenantId) => (await auth.endAccess(tenantId)).map((c) => c.sid),
    enableAccess: (tenantId) => auth.enableAccess(tenantId),
    connections() {
      auth.expireIdle();
      return auth.registry.list().map((c) => ({ ...c }));
    },
    async revokeAll() {
      let n = 0;
      for (const c of auth.registry.list()) if (await auth.revokeConnection(c.sid, 'revoked by the operator')) n++;
      return n;
    },
    advanceClock(ms) {
      clock.advance(ms);
      return clock.now();
    },
    setClock(date) {
      clock.set(date);
      return clock.now();
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', status >= 400 ? 'application/problem+json' : 'application/json');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(body));
}

const problem = (status: number, title: string, detail: string) => ({ title, status, detail });

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req);
  if (!raw.trim()) return {};
  const parsed: unknown = JSON.parse(raw);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
  return parsed as Record<string, unknown>;
}

export interface AdminHttpDeps {
  admin: SandboxAdmin;
  directory: Directory;
  clock: MutableClock;
  log: () => unknown;
}

/** Handles /admin/*; the caller answers 404 when the admin interface is off. */
export function createAdminHandler(d: AdminHttpDeps) {
  return async function handleAdmin(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const get = req.method === 'GET';
    const post = req.method === 'POST';
    let m: RegExpExecArray | null;
    if (get && path === '/admin/connections') return json(res, 200, { connections: d.admin.connections() });
    if (get && path === '/admin/log') return json(res, 200, d.log());
    if (get && path === '/admin/clock') return json(res, 200, { now: d.clock.now().toISOString() });
    if (post && (m = /^\/admin\/connections\/([^/]+)\/disconnect$/.exec(path))) {
      const sid = decodeURIComponent(m[1]!);
      const known = d.admin.connections().find((c) => c.sid === sid);
      if (!known) return json(res, 404, problem(404, 'Unknown connection', `no connection ${sid}`));
      await d.admin.disconnect(sid);
      return json(res, 200, { sid, state: 'revoked' });
    }
    if (post && (m = /^\/admin\/tenants\/([^/]+)\/(end-access|enable-access)$/.exec(path))) {
      const tenantId = decodeURIComponent(m[1]!);
      if (!d.directory.tenants().some((t) => t.id === tenantId)) return json(res, 404, problem(404, 'Unknown tenant', `no tenant ${tenantId}`));
      if (m[2] === 'enable-access') {
        d.admin.enableAccess(tenantId);
        return json(res, 200, { tenant_id: tenantId, api_access: 'enabled' });
      }
      return json(res, 200, { tenant_id: tenantId, api_access: 'ended', revoked: await d.admin.endAccess(tenantId) });
    }
    if (post && path === '/admin/revoke-all') return json(res, 200, { revoked: await d.admin.revokeAll() });
    if (post && path === '/admin/clock') {
      let body: Record<string, unknown>;
      try {
        body = await readJson(req);
      } catch {
        return json(res, 400, problem(400, 'Invalid body', 'send JSON {"advance_ms": n} or {"set": "yyyy-mm-dd"}'));
      }
      try {
        if (body.set !== undefined) d.admin.setClock(String(body.set));
        else if (body.advance_ms !== undefined) d.admin.advanceClock(Number(body.advance_ms));
        else throw new Error('send {"advance_ms": n} or {"set": "yyyy-mm-dd"}');
      } catch (e) {
        return json(res, 400, problem(400, 'Invalid clock change', (e as Error).message));
      }
      return json(res, 200, { now: d.clock.now().toISOString() });
    }
    return json(res, 404, problem(404, 'Not found', `no admin endpoint ${req.method} ${path}`));
  };
}
