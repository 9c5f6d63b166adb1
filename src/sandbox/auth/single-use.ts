// Authorization codes and refresh tokens may be used once. oidc-provider finds a token
// before it consumes it, so two requests with the same token at the same time could both
// pass. Both grant guards mark the token in use synchronously, before any await, so the
// second request sees the first and the connection can be revoked as the contract says.

/**
 * Emulated storage latency (ms) of a token grant: the in-memory store answers within one
 * tick, so without it two concurrent requests would never overlap as they do in production.
 */
export const STORAGE_HOLD_MS = 25;

export function holdForStorage(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, STORAGE_HOLD_MS));
}

export interface InFlightSlot {
  /** Set when another request presented the same token while this one held it. */
  readonly collided: boolean;
  leave(): void;
}

export class InFlight {
  private readonly running = new Map<string, { collided: boolean }>();

  /**
   * Marks `token` in use. Returns null when another request already holds it, after telling
   * that request it collided; the caller then refuses (and revokes) too.
   */
  enter(token: string): InFlightSlot | null {
    const other = this.running.get(token);
    if (other) {
      other.collided = true;
      return null;
    }
    const mine = { collided: false };
    this.running.set(token, mine);
    return {
      get collided() {
        return mine.collided;
      },
      leave: () => {
        this.running.delete(token);
      },
    };
  }
}
