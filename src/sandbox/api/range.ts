// The contract's range rules: from/to required yyyy-MM-dd, widened to whole calendar months,
// `to` capped at the last completed month (by the injected clock) and at the sandbox horizon.
import { METRICS } from '../../api/types.js';
import { lastCompletedMonth, miOf, monthEnd, monthStart, parseIsoDate } from '../data/dates.js';
import { HORIZON } from '../data/index.js';
import { badRequest } from './problem.js';

export interface EffectiveRange {
  fromMi: number;
  toMi: number;
  /** Echoed `from` and `to`. */
  from: string;
  to: string;
}

const HORIZON_MI = miOf(HORIZON);

function dateParam(q: URLSearchParams, name: 'from' | 'to'): string {
  const raw = q.get(name);
  if (raw === null || raw === '') throw badRequest(`Query parameter '${name}' is required: a date in ISO 8601 format yyyy-MM-dd, e.g. 2025-01-01.`);
  const d = parseIsoDate(raw);
  if (!d) throw badRequest(`Query parameter '${name}' has the value '${raw}', which is not a date in ISO 8601 format yyyy-MM-dd.`);
  return d;
}

export function parseRange(q: URLSearchParams, now: Date): EffectiveRange {
  const from = dateParam(q, 'from');
  const to = dateParam(q, 'to');
  if (to < from) throw badRequest(`Query parameter 'to' (${to}) is before 'from' (${from}); 'to' must be on or after 'from'.`);
  const last = lastCompletedMonth(now);
  const fromMi = miOf(from);
  if (fromMi > last) {
    throw badRequest(`Query parameter 'from' (${from}): the range lies entirely after the last completed month, which ends ${monthEnd(last)}.`);
  }
  let toMi = Math.min(miOf(to), last);
  // Past the horizon the sandbox has no data: a range reaching past it is shortened.
  if (fromMi <= HORIZON_MI) toMi = Math.min(toMi, HORIZON_MI);
  return { fromMi, toMi, from: monthStart(fromMi), to: monthEnd(toMi) };
}

/** The `metric` filter: undefined for all metrics. */
export function parseMetrics(q: URLSearchParams): Set<string> | undefined {
  const raw = q.get('metric');
  if (raw === null) return undefined;
  const items = raw.split(',').map((s) => s.trim());
  for (const m of items) {
    if (!(METRICS as readonly string[]).includes(m)) {
      throw badRequest(`Query parameter 'metric' has the unknown value '${m}'; known metrics: ${METRICS.join(', ')}.`);
    }
  }
  return new Set(items);
}
