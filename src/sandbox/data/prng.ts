// Deterministic hashing and ids. Everything in the synthetic data set is a pure
// function of (seed, entity key), so nothing has to be materialised or stored.

/** 32-bit FNV-1a followed by a murmur3 finaliser (better avalanche on short keys). */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform number in [0, 1) keyed by the given parts. */
export function rand(...parts: (string | number)[]): number {
  return hash32(parts.join('|')) / 4294967296;
}

/** Seeded PRNG stream (mulberry32), used by fault injection. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type EntityKind = 'tenant' | 'property' | 'unit' | 'point' | 'device';
const KIND_DIGIT: Record<EntityKind, string> = { tenant: '1', property: '2', unit: '3', point: '4', device: '5' };
const DIGIT_KIND = Object.fromEntries(Object.entries(KIND_DIGIT).map(([k, d]) => [d, k as EntityKind]));
const hex = (n: number, len: number) => n.toString(16).padStart(len, '0').slice(-len);

/**
 * v4-format UUID for an entity. The last group carries kind and (offset) key so an id can be
 * resolved without a lookup table; the rest is a seed hash, so ids differ between seeds.
 */
export class Ids {
  private readonly offsets: Record<string, number> = {};
  constructor(private readonly seed: string) {
    for (const k of Object.keys(KIND_DIGIT)) this.offsets[k] = hash32(`${seed}|offset|${k}`) % 0x1000000;
  }

  of(kind: EntityKind, key: number): string {
    const a = hash32(`${this.seed}|${kind}|${key}|a`);
    const b = hash32(`${this.seed}|${kind}|${key}|b`);
    const variant = (8 + (b & 3)).toString(16);
    return `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b >>> 4, 3)}-${variant}${hex(a >>> 7, 3)}-${KIND_DIGIT[kind]}${hex(key + (this.offsets[kind] ?? 0), 11)}`;
  }

  /** The key of an id of this seed and kind, or undefined (unknown, other kind, other seed, not a UUID). */
  parse(kind: EntityKind, id: string): number | undefined {
    if (!UUID_RE.test(id)) return undefined;
    const lower = id.toLowerCase();
    if (DIGIT_KIND[lower.charAt(24)] !== kind) return undefined;
    const key = parseInt(lower.slice(25), 16) - (this.offsets[kind] ?? 0);
    if (!Number.isSafeInteger(key) || key < 0) return undefined;
    return this.of(kind, key) === lower ? key : undefined;
  }
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
