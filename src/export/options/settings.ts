// What differs between the settings an export folder was written with (its manifest's
// identity, see options.ts `identity`) and the ones asked for now, in words an accountant
// reads: "period 2024 → 2025", "plausibility review none → compared with 2024". Pure: the
// caller reads the manifest.
import { valueWord } from '../../billing/texts-values.js';
import { day, language } from '../../i18n/index.js';
import { settingTexts as t } from './texts-settings.js';

type Identity = Record<string, unknown>;

const isRecord = (v: unknown): v is Identity => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** "2025" for a calendar year, else "01.01.2025–30.06.2025" in the reader's dates. */
export function periodWords(from: unknown, to: unknown): string {
  if (typeof from !== 'string' || typeof to !== 'string') return t.unset;
  const y = from.slice(0, 4);
  if (from === `${y}-01-01` && to === `${y}-12-31`) return y;
  return `${day(from)}–${day(to)}`;
}

function listWords(v: unknown, all: string, word: (s: string) => string = (s) => s): string {
  if (!Array.isArray(v)) return t.unset;
  return v.length === 0 ? all : v.map((x) => word(String(x))).join(', ');
}

const text = (v: unknown) => (typeof v === 'string' ? v : t.unset);
const propertyWords = (v: unknown) => (Array.isArray(v) && v.length > 0 ? t.someProperties({ n: v.length }) : listWords(v, t.allProperties));
const metricWords = (v: unknown) => listWords(v, t.allMetrics, (m) => valueWord('metric', m, language()));

function reviewWords(v: unknown): string {
  if (v === undefined || v === null) return t.reviewOff;
  const compare = isRecord(v) ? v.compare : undefined;
  if (isRecord(compare) && typeof compare.dir === 'string') return t.reviewFolder({ dir: compare.dir });
  if (isRecord(compare)) return t.reviewPeriod({ period: periodWords(compare.from, compare.to) });
  return t.reviewAlone;
}

const thresholdWords = (v: unknown) => (isRecord(v) && typeof v.threshold === 'string' ? t.percent({ n: v.threshold }) : null);

// A manifest is a file anyone may have edited: its values and the number of settings named are bounded, so the refusal stays one line.
const MAX_VALUE = 60;
const MAX_CHANGES = 6;
const clip = (s: string) => ([...s].length > MAX_VALUE ? `${[...s].slice(0, MAX_VALUE - 1).join('')}…` : s);

const KNOWN = new Set(['from', 'to', 'profile', 'properties', 'metrics', 'formats', 'template', 'review', 'unit']);

/**
 * One "setting old → new" per setting that differs, the period first; empty when `before`
 * is no identity (a manifest meterdata cannot read) or nothing differs. A setting meterdata
 * has no words for (a manifest of another version) is named by its key.
 */
export function settingChanges(before: unknown, now: Identity): string[] {
  if (!isRecord(before)) return [];
  const out: string[] = [];
  const add = (setting: string, a: string, b: string, raw: [unknown, unknown]) => {
    if (same(raw[0], raw[1])) return;
    // Two lists of the same length read the same in words: then the values themselves.
    const [wa, wb] = a === b ? [JSON.stringify(raw[0]) ?? t.unset, JSON.stringify(raw[1]) ?? t.unset] : [a, b];
    out.push(t.change({ setting: clip(setting), before: clip(wa), after: clip(wb) }));
  };
  add(t.period, periodWords(before.from, before.to), periodWords(now.from, now.to), [
    [before.from, before.to],
    [now.from, now.to],
  ]);
  add(t.profile, text(before.profile), text(now.profile), [before.profile, now.profile]);
  add(t.properties, propertyWords(before.properties), propertyWords(now.properties), [before.properties, now.properties]);
  add(t.metrics, metricWords(before.metrics), metricWords(now.metrics), [before.metrics, now.metrics]);
  add(t.formats, listWords(before.formats, t.unset), listWords(now.formats, t.unset), [before.formats, now.formats]);
  add(t.template, text(before.template), text(now.template), [before.template, now.template]);
  const unitWords = (v: unknown) => (v === undefined ? t.wholeProperty : text(v));
  add(t.unit, unitWords(before.unit), unitWords(now.unit), [before.unit, now.unit]);
  const [ra, rb] = [reviewWords(before.review), reviewWords(now.review)];
  if (ra !== rb) out.push(t.change({ setting: t.review, before: clip(ra), after: clip(rb) }));
  const [ta, tb] = [thresholdWords(before.review), thresholdWords(now.review)];
  if (ta !== null && tb !== null && ta !== tb) out.push(t.change({ setting: t.threshold, before: ta, after: tb }));
  for (const key of new Set([...Object.keys(before), ...Object.keys(now)])) {
    if (!KNOWN.has(key)) add(t.other({ key }), JSON.stringify(before[key]) ?? t.unset, JSON.stringify(now[key]) ?? t.unset, [before[key], now[key]]);
  }
  return out.length > MAX_CHANGES ? [...out.slice(0, MAX_CHANGES - 1), t.more({ n: out.length - MAX_CHANGES + 1 })] : out;
}
