// Decimal arithmetic for billing. Server values are JSON numbers (at most 17 significant
// digits); with 60 digits of working precision every sum and share product below is exact,
// so the order of units, points or segments can never change a total.
import { Decimal as DecimalJs } from 'decimal.js';
import type { DecimalString } from './types.js';

export const Dec = DecimalJs.clone({ precision: 60, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -1e9, toExpPos: 1e9 });
export type Decimal = DecimalJs;
export type DecimalInput = DecimalJs | string | number;

export const ZERO: Decimal = new Dec(0);

export function dec(value: DecimalInput): Decimal {
  return new Dec(value);
}

/** Plain notation, no exponent, no trailing zeros, "0" for any zero (also -0). */
export function formatDecimal(value: DecimalInput): DecimalString {
  // Each segment row formats the server's numbers: decimal.js reads a number from its shortest
  // form (String), so where that has no exponent it is already the plain notation, without
  // two Decimals per value.
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (value === 0) return '0';
    const s = String(value);
    if (!s.includes('e')) return s;
  }
  const d = DecimalJs.isDecimal(value) ? value : new Dec(value);
  if (!d.isFinite()) throw new RangeError(`Not a finite number: ${String(value)}`);
  if (d.isZero()) return '0';
  return d.toFixed();
}

/** formatDecimal for nullable optional inputs (segment rows show what the server sent). */
export function formatOptional(value: number | null | undefined): DecimalString | null {
  return value === null || value === undefined ? null : formatDecimal(value);
}

export function sum(values: Iterable<Decimal>): Decimal {
  let total = ZERO;
  for (const v of values) total = total.plus(v);
  return total;
}
