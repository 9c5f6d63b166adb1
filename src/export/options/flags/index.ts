// The export's flag parsers as commander calls them (each bad value one line naming the flag,
// UsageError, exit 2). A surface of their own: src/commands/export/index.ts declares its flags
// with them and `meterdata --help` loads that declaration, so nothing here may load the
// export's run (the output's tables, the review, decimal.js); options.ts re-exports them.
import { UsageError } from '../../../core/errors.js';
import { METRICS, UUID, isKnown, type KnownMetric } from '../../../api/types.js';
import { FORMAT_NAMES, type Format } from '../../output/formats/index.js';
import { optionTexts as t } from '../texts-options.js';

export type { Format };
/** The export's option texts, for the conflicts the declaration words (--compare with its pair). */
export { optionTexts } from '../texts-options.js';

/** The registry's names (src/export/output/registry.ts). */
export const FORMATS = FORMAT_NAMES;

function list(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** --property, repeatable, each a comma-separated list: ids checked, lower-cased, each once. */
export function propertyFlag(value: string, previous: string[] = []): string[] {
  const given = list(value);
  if (given.length === 0) throw new UsageError(t.propertyEmpty, t.propertyEmptyHint);
  const ids = [...previous];
  for (const raw of given) {
    if (!UUID.test(raw)) throw new UsageError(t.notAPropertyId({ value: raw }), t.notAPropertyIdHint);
    if (!ids.includes(raw.toLowerCase())) ids.push(raw.toLowerCase());
  }
  return ids;
}

export function metricFlag(value: string): KnownMetric[] {
  const given = list(value);
  const hint = t.knownMetrics({ list: METRICS.join(', ') });
  if (given.length === 0) throw new UsageError(t.metricEmpty, hint);
  return given.map((m) => {
    if (!isKnown(METRICS, m)) throw new UsageError(t.unknownMetric({ value: m }), hint);
    return m;
  });
}

/** Every format, as `--format` takes them at once (its default). */
export const ALL_FORMATS = FORMATS.join(',');

export function formatFlag(value: string): Format[] {
  const hint = () => t.formatHint({ list: FORMATS.join(', '), all: ALL_FORMATS });
  const formats = list(value).map((f) => {
    if (!isKnown(FORMATS, f)) throw new UsageError(t.unknownFormat({ value: f }), hint());
    return f;
  });
  if (formats.length === 0) throw new UsageError(t.formatEmpty, hint());
  return formats.sort();
}

export function rateLimitFlag(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000) throw new UsageError(t.badRateLimit({ value }), t.rateLimitHint);
  return Number(value);
}

/** --threshold: a percentage above 0 and up to 1000, at most two decimals ("25", "12.5"). */
export function thresholdFlag(value: string): string {
  if (!/^\d{1,4}(\.\d{1,2})?$/.test(value) || Number(value) <= 0 || Number(value) > 1000) throw new UsageError(t.badThreshold({ value }), t.badThresholdHint);
  return String(Number(value));
}
