// The API client rig for unit tests: a fake API on loopback, a client with fast retries and
// a counting Credentials. The answers it serves come from the typed builders in builders.ts.
import { afterEach } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import type { ApiClient, ApiClientOptions, ApiEvent, UnknownValue } from '../../src/api/contracts.js';
import type { Credentials } from '../../src/core/credentials.js';
import { startFakeApi, type FakeApi } from './fake-api-server.js';

/** Credentials that count calls; refreshAfterRejection is single-flight like the real one. */
export class FakeCredentials implements Credentials {
  token = 'tok-1';
  refreshes = 0;
  rejected: string[] = [];
  calls: { method: string; url: string }[] = [];
  proofs = 0;
  private inflight: Promise<void> | null = null;
  constructor(readonly dpop = false) {}

  async headersFor(method: string, url: string): Promise<Record<string, string>> {
    this.calls.push({ method, url });
    if (!this.dpop) return { authorization: `Bearer ${this.token}` };
    return { authorization: `DPoP ${this.token}`, dpop: `proof-${++this.proofs}-${method}-${url}` };
  }

  refreshAfterRejection(rejectedToken: string): Promise<void> {
    this.rejected.push(rejectedToken);
    if (rejectedToken !== this.token) return Promise.resolve();
    this.inflight ??= new Promise<void>((resolve) => setTimeout(resolve, 20)).then(() => {
      this.refreshes++;
      this.token = `tok-${this.refreshes + 1}`;
      this.inflight = null;
    });
    return this.inflight;
  }

  async currentToken() {
    return this.token;
  }
}

export interface Rig {
  api: FakeApi;
  client: ApiClient;
  creds: FakeCredentials;
  events: ApiEvent[];
  unknown: UnknownValue[];
}

const open: Rig[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) {
    await r.client.close();
    await r.api.close();
  }
});

/** A fake API plus a client with fast retries; closed after each test. */
export async function rig(opts: Partial<ApiClientOptions> & { dpop?: boolean } = {}): Promise<Rig> {
  const api = await startFakeApi();
  const creds = new FakeCredentials(opts.dpop ?? false);
  const events: ApiEvent[] = [];
  const unknown: UnknownValue[] = [];
  const client = createApiClient({
    baseUrl: api.baseUrl,
    credentials: creds,
    rateLimitPerMinute: 60_000,
    retryBaseMs: 5,
    retryMaxMs: 20,
    onEvent: (e) => events.push(e),
    onUnknownValue: (u) => unknown.push(u),
    ...opts,
  });
  const r = { api, client, creds, events, unknown };
  open.push(r);
  return r;
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The rejection of `p`, or a failure when it resolves. */
export async function failure(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}
