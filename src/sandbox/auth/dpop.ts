// DPoP proof checks shared by the token endpoint guard and the /v1 token validator:
// signature over the embedded public key, no nonce, htm, htu without query, iat within
// 60 s of real time, and jti replay. The caller adds what it knows (ath, key thumbprint).
import { EmbeddedJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';

export const DPOP_IAT_TOLERANCE_S = 60;
export const DPOP_ALGS = ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'];
/** Enough for ~1,600 proofs per second over the 120 s a jti is remembered. */
const MAX_REMEMBERED = 200_000;

/**
 * jti values of accepted proofs, each kept until its iat leaves the 60 s window (a later
 * replay fails the iat check anyway). Bounded: when full, the oldest entries go first.
 */
export class DpopReplayCache {
  private readonly seen = new Map<string, number>();
  private lastSweep = 0;
  constructor(private readonly max = MAX_REMEMBERED) {}

  has(jti: string): boolean {
    const exp = this.seen.get(jti);
    return exp !== undefined && exp >= Date.now();
  }

  remember(jti: string, iat: number): void {
    const now = Date.now();
    if (now - this.lastSweep > 1000) {
      this.lastSweep = now;
      for (const [k, exp] of this.seen) if (exp < now) this.seen.delete(k);
    }
    while (this.seen.size >= this.max) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(jti, (iat + DPOP_IAT_TOLERANCE_S) * 1000 + 1000);
  }

  get size(): number {
    return this.seen.size;
  }
}

export type ProofCheck = { ok: true; payload: JWTPayload; jwk: JWK } | { ok: false; problem: string };

/** Checks what every proof must satisfy; does not remember the jti (see DpopReplayCache.remember). */
export async function checkDpopProof(proof: string, method: string, publicUrl: string, replay: DpopReplayCache): Promise<ProofCheck> {
  const fail = (problem: string): ProofCheck => ({ ok: false, problem });
  let payload: JWTPayload;
  let jwk: JWK;
  try {
    const verified = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: DPOP_ALGS });
    payload = verified.payload;
    jwk = verified.protectedHeader.jwk as JWK;
  } catch (e) {
    return fail(`DPoP proof is not valid: ${(e as Error).message}`);
  }
  if ('d' in jwk || 'k' in jwk) return fail('DPoP proof jwk must be a public key');
  if ('nonce' in payload) return fail('DPoP nonces are not used by this server; send a proof without nonce');
  if (payload.htm !== method) return fail(`DPoP proof htm must be ${method}`);
  const htu = typeof payload.htu === 'string' ? URL.parse(payload.htu) : null;
  if (!htu) return fail('DPoP proof htu is missing');
  htu.search = '';
  htu.hash = '';
  if (htu.href !== new URL(publicUrl).href) return fail(`DPoP proof htu must be ${publicUrl}`);
  // iat is compared with real time: clients sign with their own clock, not the sandbox's.
  if (typeof payload.iat !== 'number' || Math.abs(Date.now() / 1000 - payload.iat) > DPOP_IAT_TOLERANCE_S)
    return fail('DPoP proof iat is not within 60 seconds');
  if (typeof payload.jti !== 'string' || !payload.jti) return fail('DPoP proof jti is missing');
  if (replay.has(payload.jti)) return fail('DPoP proof was already used (jti replay); send a fresh proof with a new jti');
  return { ok: true, payload, jwk };
}
