// Connections (consent grants) and their state, read by the token validator on every
// API request so a revocation takes effect at once. Times are sandbox-clock times.
import type { Clock, Directory } from '../contracts.js';

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_IDLE_MS = 90 * 24 * 3600 * 1000;

export type ConnectionState = 'consented' | 'connected' | 'revoked';

export interface Connection {
  sid: string;
  client_id: string;
  tenant_id: string;
  tenant_name: string;
  property_scope: 'all' | string[];
  scopes: string[];
  resource: string;
  state: ConnectionState;
  created_at: string;
  revoked_at?: string;
  revoked_reason?: string;
}

export class ConnectionRegistry {
  private readonly connections = new Map<string, Connection>();
  /** Sandbox time each access/refresh token was issued at, by token id. */
  private readonly issued = new Map<string, number>();
  private readonly disabledTenants = new Set<string>();
  private readonly lastRefreshIssued = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    directory: Directory,
  ) {
    for (const t of directory.tenants() as { id: string; apiAccessEnabled?: boolean }[]) if (t.apiAccessEnabled === false) this.disabledTenants.add(t.id);
  }

  add(c: Omit<Connection, 'state' | 'created_at'>): Connection {
    const conn: Connection = { ...c, state: 'consented', created_at: this.clock.now().toISOString() };
    this.connections.set(c.sid, conn);
    return conn;
  }

  get(sid: string): Connection | undefined {
    return this.connections.get(sid);
  }

  list(): Connection[] {
    return [...this.connections.values()];
  }

  tokenIssued(tokenId: string, sid: string | undefined, kind: 'AccessToken' | 'RefreshToken'): void {
    const now = this.clock.now().getTime();
    this.issued.set(tokenId, now);
    const conn = sid ? this.connections.get(sid) : undefined;
    if (!conn) return;
    if (conn.state === 'consented') conn.state = 'connected';
    if (kind === 'RefreshToken') this.lastRefreshIssued.set(conn.sid, now);
  }

  /** Connected connections whose newest refresh token has been unused for 90 days (sandbox clock). */
  idle(): Connection[] {
    const now = this.clock.now().getTime();
    return this.list().filter((c) => c.state === 'connected' && now - (this.lastRefreshIssued.get(c.sid) ?? now) > REFRESH_IDLE_MS);
  }

  issuedAt(tokenId: string): number | undefined {
    return this.issued.get(tokenId);
  }

  /** Marks the connection revoked; returns false when it already was (or is unknown). */
  markRevoked(sid: string, reason: string): boolean {
    const conn = this.connections.get(sid);
    if (!conn || conn.state === 'revoked') return false;
    conn.state = 'revoked';
    conn.revoked_at = this.clock.now().toISOString();
    conn.revoked_reason = reason;
    return true;
  }

  isRevoked(sid: string): boolean {
    return this.connections.get(sid)?.state === 'revoked';
  }

  tenantAccessEnabled(tenantId: string): boolean {
    return !this.disabledTenants.has(tenantId);
  }

  setTenantAccess(tenantId: string, enabled: boolean): void {
    if (enabled) this.disabledTenants.delete(tenantId);
    else this.disabledTenants.add(tenantId);
  }

  connectionsOfTenant(tenantId: string): Connection[] {
    return this.list().filter((c) => c.tenant_id === tenantId && c.state !== 'revoked');
  }
}
