// The three comparisons § 6a Abs. 2 HeizkostenV asks for: with the previous month, the
// same month a year earlier and the average user, as numbers and in words ("12 % weniger
// als im Oktober 2025"). Pure.
import { Dec, type Decimal } from '../billing/decimal.js';
import { inLanguage, num, type Lang } from '../i18n/index.js';
import { addMonths, monthNumber, type Month } from './months.js';
import { uviTexts } from './texts.js';
import type { MissingReason, ServiceMonth, UnitService } from './types.js';

export type ComparisonKind = 'previous_month' | 'same_month_last_year' | 'benchmark';

export interface Comparison {
  kind: ComparisonKind;
  /** The month compared with; null for the average user. */
  month: Month | null;
  value: Decimal | null;
  other: Decimal | null;
  /** Whole percent of the other value, rounded half up, always ≥ 0; null where there is no comparison or the other is 0. */
  percent: number | null;
  direction: 'less' | 'more' | 'same' | null;
  words: string;
}

/** "Oktober 2025" / "October 2025". */
export function monthWords(month: Month, lang: Lang): string {
  const t = inLanguage(uviTexts, lang);
  return t.monthYear({ name: t.monthNames.split('|')[monthNumber(month) - 1]!, year: month.slice(0, 4) });
}

/** The words of why a month has no value, in order, without repeats. */
export function reasonWords(reasons: readonly MissingReason[], lang: Lang): string[] {
  const t = inLanguage(uviTexts, lang);
  return [...new Set(reasons)].map((r) => t[`reason_${r}`]);
}

function direction(value: Decimal, other: Decimal): { percent: number | null; direction: 'less' | 'more' | 'same' } {
  if (other.isZero()) return value.isZero() ? { percent: 0, direction: 'same' } : { percent: null, direction: 'more' };
  const pct = value.minus(other).div(other).times(100);
  const whole = pct.abs().toDecimalPlaces(0, Dec.ROUND_HALF_UP).toNumber();
  return { percent: whole, direction: whole === 0 ? 'same' : pct.isNegative() ? 'less' : 'more' };
}

/**
 * The letter month's comparisons for one service. Figures are the kWh where the letter
 * month has kWh, else the unit's own figure (allocator units, m³); the average user only in kWh.
 */
export function comparisons(service: UnitService, month: Month, lang: Lang): Comparison[] {
  const t = inLanguage(uviTexts, lang);
  const at = (m: Month) => service.months.find((x) => x.month === m);
  const current = at(month);
  const inKwh = current?.kwh != null;
  const figure = (m: ServiceMonth | undefined) => (m ? (inKwh ? m.kwh : m.native) : null);
  const value = figure(current);
  const out: Comparison[] = [];
  for (const [kind, other] of [
    ['previous_month', addMonths(month, -1)],
    ['same_month_last_year', addMonths(month, -12)],
  ] as const) {
    const when = monthWords(other, lang);
    const o = figure(at(other));
    if (value === null || o === null) {
      out.push({ kind, month: other, value, other: o, percent: null, direction: null, words: value === null ? t.noValueThisMonth : t.noValueIn({ when }) });
      continue;
    }
    const d = direction(value, o);
    const pct = num(d.percent ?? 0, lang);
    const words =
      d.percent === null
        ? t.moreThanNothingIn({ when })
        : d.direction === 'same'
          ? t.sameAsIn({ when })
          : d.direction === 'less'
            ? t.lessThanIn({ pct, when })
            : t.moreThanIn({ pct, when });
    out.push({ kind, month: other, value, other: o, ...d, words });
  }
  const bench = current?.benchmark_kwh ?? null;
  if (!inKwh || value === null || bench === null || bench.isZero()) {
    out.push({ kind: 'benchmark', month: null, value, other: bench, percent: null, direction: null, words: value === null ? t.noValueThisMonth : t.noAverage });
  } else {
    const d = direction(value, bench);
    const pct = num(d.percent ?? 0, lang);
    const words = d.direction === 'same' ? t.sameAsAverage : d.direction === 'less' ? t.lessThanAverage({ pct }) : t.moreThanAverage({ pct });
    out.push({ kind: 'benchmark', month: null, value, other: bench, ...d, words });
  }
  return out;
}
