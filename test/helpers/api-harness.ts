// Starts createApi behind a real node:http server on 127.0.0.1 with a fake TokenValidator
// (fixed token strings → TokenInfo), and fetches with plain fetch (not the project's client).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TokenCheck, TokenInfo, TokenValidator } from '../../src/sandbox/contracts.js';
import { createApi, RequestLog, type FaultPlan } from '../../src/sandbox/api/index.js';
import { generateDataset, type Dataset } from '../../src/sandbox/data/index.js';

export const ALL = ['read:units', 'read:devices', 'read:readings'];
export const ENDED_TENANT = '00000000-0000-4000-8000-000000000000';

export interface Harness {
  base: string;
  ds: Dataset;
  log: RequestLog;
  /** publicUrl values the API passed to tokens.validate, in order. */
  validated: string[];
  clockNow: { value: Date };
  get(path: string, token?: string | null, init?: RequestInit & { dpop?: boolean }): Promise<Got>;
  close(): Promise<void>;
}

export interface Got {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface HarnessOptions {
  units?: number;
  seed?: string;
  clock?: string;
  rateLimitPerMinute?: number;
  faults?: FaultPlan;
  futureContract?: boolean;
  latencyMs?: [number, number];
}

function tokenTable(ds: Dataset): Record<string, TokenInfo> {
  const [nord, sued] = ds.tenants();
  const base = { client_id: 'erp_0123456789abcdef0123456789abcdef', expires_at: 1_795_000_000 };
  const p1 = ds.propertiesOf(nord!.id)[0]!.id;
  return {
    full: { ...base, sid: 'sid-full', tenant_id: nord!.id, scopes: ALL, property_scope: 'all' },
    second: { ...base, sid: 'sid-second', tenant_id: nord!.id, scopes: ALL, property_scope: 'all' },
    unitsonly: { ...base, sid: 'sid-units', tenant_id: nord!.id, scopes: ['read:units'], property_scope: 'all' },
    p1only: { ...base, sid: 'sid-p1', tenant_id: nord!.id, scopes: ALL, property_scope: [p1] },
    sued: { ...base, sid: 'sid-sued', tenant_id: sued!.id, scopes: ALL, property_scope: 'all', expires_at: 0 },
    ended: { ...base, sid: 'sid-ended', tenant_id: ENDED_TENANT, scopes: ALL, property_scope: 'all' },
  };
}

class FakeTokens implements TokenValidator {
  readonly validated: string[] = [];
  constructor(private readonly table: Record<string, TokenInfo>) {}
  async validate(req: import('node:http').IncomingMessage, publicUrl: string): Promise<TokenCheck> {
    this.validated.push(publicUrl);
    const m = /^(Bearer|DPoP) (.+)$/.exec(req.headers.authorization ?? '');
    if (!m) return { ok: false, error: 'invalid_token', description: 'No access token was sent.', scheme: 'Bearer' };
    const scheme = m[1] as 'Bearer' | 'DPoP';
    if (scheme === 'DPoP' && req.headers.dpop !== 'good-proof') {
      return { ok: false, error: 'invalid_dpop_proof', description: 'The DPoP proof is invalid.', scheme: 'DPoP' };
    }
    const info = this.table[m[2]!];
    if (!info) return { ok: false, error: 'invalid_token', description: 'The access token is invalid or expired.', scheme };
    return { ok: true, token: info };
  }
  tenantAccessEnabled(tenantId: string): boolean {
    return tenantId !== ENDED_TENANT;
  }
}

export async function startApi(opts: HarnessOptions = {}): Promise<Harness> {
  const ds = generateDataset({ seed: opts.seed, units: opts.units });
  const tokens = new FakeTokens(tokenTable(ds));
  const log = new RequestLog();
  const clockNow = { value: new Date(`${opts.clock ?? '2026-11-22'}T10:00:00Z`) };
  const handler = createApi({
    dataset: ds,
    tokens,
    clock: { now: () => clockNow.value },
    rateLimitPerMinute: opts.rateLimitPerMinute ?? 0,
    faults: opts.faults,
    futureContract: opts.futureContract,
    latencyMs: opts.latencyMs,
    log,
  });
  const server: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    base,
    ds,
    log,
    validated: tokens.validated,
    clockNow,
    async get(path, token = 'full', init = {}) {
      const headers: Record<string, string> = {};
      if (token !== null) headers.authorization = `${init.dpop ? 'DPoP' : 'Bearer'} ${token}`;
      if (init.dpop) headers.dpop = 'good-proof';
      const res = await fetch(base + path, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
      const text = await res.text();
      let body: unknown = undefined;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: res.status, headers: res.headers, body, text };
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Walks every page of a list endpoint; returns all items and the number of pages. */
export async function walk(h: Harness, path: string, limit: number, token = 'full') {
  const items: any[] = [];
  let pages = 0;
  let cursor: string | null = null;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const r: Got = await h.get(`${path}${sep}limit=${limit}${cursor ? `&page_cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
    if (pages === 0 && r.body.prev_cursor !== null) throw new Error('prev_cursor must be null on the first page');
    items.push(...r.body.data);
    cursor = r.body.next_cursor;
    pages++;
    if (pages > 1000) throw new Error('too many pages');
  } while (cursor);
  return { items, pages };
}

/** Index of units and points by name for the fixed Property "Musterstraße 1-5". */
export async function musterstrasse(h: Harness) {
  const props = (await h.get('/properties')).body.data as any[];
  const p1 = props.find((p) => p.name === 'Musterstraße 1-5');
  const units = (await walk(h, `/usage-units?property_id=${p1.id}`, 200)).items;
  const unit = (name: string) => units.find((u) => u.name === name);
  const points = (await walk(h, `/properties/${p1.id}/measuring-points`, 200)).items;
  return { p1, units, unit, points };
}

export const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 1000) / 1000;
