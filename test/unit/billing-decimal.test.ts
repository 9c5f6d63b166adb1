import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { formatDecimal } from '../../src/billing/index.js';

/** A deterministic stream of doubles (mulberry32), so a failure names a case that comes again. */
function doubles(seed: number, n: number): number[] {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: n }, () => {
    const v = (next() - 0.5) * 10 ** Math.floor(next() * 60 - 30);
    // meter values are often whole or have few decimals: round some of them
    return next() < 0.3 ? Math.round(v * 1000) / 1000 : v;
  });
}

describe("formatDecimal of the server's numbers", () => {
  it('writes every number as decimal.js writes it in plain notation, at every magnitude and sign', () => {
    const edge = [0, -0, 1, -1, 0.1, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 123456789.123, 2 ** 53, 2 ** 53 + 2, Number.MAX_VALUE, Number.MIN_VALUE, -1e-300];
    for (const n of [...edge, ...doubles(25, 20_000)]) {
      const want = new Decimal(n).toFixed();
      expect(formatDecimal(n), String(n)).toBe(want === '-0' ? '0' : want);
    }
  });
});
