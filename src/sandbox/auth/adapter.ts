// In-memory storage for oidc-provider. One store per sandbox; it tells the connection
// registry when tokens are issued so expiry can follow the sandbox clock.

type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: number };

export interface StoreHooks {
  saved?(model: string, id: string, payload: Payload): void;
}

export class MemoryStore {
  private readonly entries = new Map<string, { payload: Payload; expiresAt?: number }>();
  private readonly byGrant = new Map<string, Set<string>>();
  constructor(readonly hooks: StoreHooks = {}) {}

  private live(key: string): Payload | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt !== undefined && e.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.payload;
  }

  upsert(model: string, id: string, payload: Payload, expiresIn?: number): void {
    const key = `${model}:${id}`;
    this.entries.set(key, { payload: structuredClone(payload), expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
    if (payload.grantId) {
      const set = this.byGrant.get(payload.grantId) ?? new Set<string>();
      set.add(key);
      this.byGrant.set(payload.grantId, set);
    }
    this.hooks.saved?.(model, id, payload);
  }

  find(model: string, id: string): Payload | undefined {
    const p = this.live(`${model}:${id}`);
    return p && structuredClone(p);
  }

  findBy(model: string, field: 'uid' | 'userCode', value: string): Payload | undefined {
    for (const [key] of this.entries) {
      if (!key.startsWith(`${model}:`)) continue;
      const p = this.live(key);
      if (p?.[field] === value) return structuredClone(p);
    }
    return undefined;
  }

  destroy(model: string, id: string): void {
    this.entries.delete(`${model}:${id}`);
  }

  /** Deletes every token, code and the grant itself of one connection. */
  revokeByGrantId(grantId: string): void {
    for (const key of this.byGrant.get(grantId) ?? []) this.entries.delete(key);
    this.byGrant.delete(grantId);
    this.entries.delete(`Grant:${grantId}`);
  }

  consume(model: string, id: string): void {
    const e = this.entries.get(`${model}:${id}`);
    if (e) e.payload.consumed = Math.floor(Date.now() / 1000);
  }

  /** The adapter class oidc-provider instantiates per model name. */
  adapterClass() {
    const store = this;
    return class MemoryAdapter {
      constructor(readonly model: string) {}
      async upsert(id: string, payload: Payload, expiresIn?: number) {
        store.upsert(this.model, id, payload, expiresIn);
      }
      async find(id: string) {
        return store.find(this.model, id);
      }
      async findByUid(uid: string) {
        return store.findBy(this.model, 'uid', uid);
      }
      async findByUserCode(userCode: string) {
        return store.findBy(this.model, 'userCode', userCode);
      }
      async destroy(id: string) {
        store.destroy(this.model, id);
      }
      async revokeByGrantId(grantId: string) {
        store.revokeByGrantId(grantId);
      }
      async consume(id: string) {
        store.consume(this.model, id);
      }
    };
  }
}
