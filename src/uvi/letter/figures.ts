// Figures as the letter's reader writes them: German 1.234,5 kWh, English 1,234.5 kWh,
// a fixed number of decimals per unit so a column lines up, rounded half up from the
// exact decimal (never through a float). Pure.
import { Dec, type Decimal } from '../../billing/decimal.js';
import type { Lang } from '../../i18n/index.js';

/** The letter's units: kWh, allocator units, m³. */
export type FigureUnit = 'kWh' | 'unit' | 'm3';

/** kWh to one decimal (the "1.234,5 kWh"), allocator units to one, m³ to two (a litre is noise, ten are not). */
export const DECIMALS: Record<FigureUnit, number> = { kWh: 1, unit: 1, m3: 2 };

/** "1234.56" → "1.234,56" (de) or "1,234.56" (en). */
export function groupDigits(plain: string, lang: Lang): string {
  const negative = plain.startsWith('-');
  const [int, frac] = (negative ? plain.slice(1) : plain).split('.') as [string, string | undefined];
  const [group, point] = lang === 'de' ? ['.', ','] : [',', '.'];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${frac === undefined ? '' : point + frac}`;
}

/** The figure rounded to its unit's decimals, localized; "-0,0" never appears. */
export function figure(value: Decimal, unit: FigureUnit, lang: Lang): string {
  const fixed = value.toDecimalPlaces(DECIMALS[unit], Dec.ROUND_HALF_UP).toFixed(DECIMALS[unit]);
  return groupDigits(/^-0(\.0+)?$/.test(fixed) ? fixed.slice(1) : fixed, lang);
}

/** An area in m², as many decimals as given (at most two). */
export function area(m2: number, lang: Lang): string {
  return groupDigits(new Dec(m2).toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed(), lang);
}
