// The contract's codes in the reader's words: reading statuses (letter, colour, word),
// metrics, unit types, replacement reasons and baseline origins, month names. Unknown
// values are shown as received, marked, never dropped.
import type { ReadingStatus } from '../api/types.js';
import { language } from '../i18n/index.js';
import { fit } from './format.js';
import { s } from './texts-screens.js';

/** Letter and colour of a reading status: the letter makes the chart readable without colour. */
export interface StatusMark {
  letter: string;
  color: string;
  label: string;
}

/** A mark whose letter and word are read in the run's language when drawn. */
const mark = (letter: () => string, color: string, label: () => string): StatusMark => ({
  get letter() {
    return letter();
  },
  color,
  get label() {
    return label();
  },
});

const MARKS: Record<string, StatusMark> = {
  measured: mark(
    () => s.letterMeasured,
    'green',
    () => s.measured,
  ),
  calculated: mark(
    () => s.letterCalculated,
    'yellow',
    () => s.calculated,
  ),
  substituted: mark(
    () => s.letterSubstituted,
    'yellow',
    () => s.substituted,
  ),
  missing: mark(
    () => '-',
    'red',
    () => s.missing,
  ),
  calibration_expired: mark(
    () => 'X',
    'magenta',
    () => s.calibrationExpired,
  ),
};

export const STATUS_MARKS: StatusMark[] = Object.values(MARKS);

export const NO_READING: StatusMark = mark(
  () => '·',
  'gray',
  () => s.noReading,
);

export function statusMark(status: ReadingStatus | null | undefined): StatusMark {
  if (status === null || status === undefined) return NO_READING;
  return MARKS[status] ?? { letter: '?', color: 'cyan', label: s.unknownStatus({ status }) };
}

/** The mark of a status outside the contract, as the help explains it. */
export const UNKNOWN_MARK: StatusMark = mark(
  () => '?',
  'cyan',
  () => s.unknownStatusHelp,
);

export const LEGEND_STATUSES = ['measured', 'calculated', 'missing', 'calibration_expired'] as const;

export function monthName(key: string): string {
  return s.months.split(' ')[Number(key.slice(5, 7)) - 1] ?? key;
}

/** The words for a metric: [label on screens, short word in totals, code in the Property list, word in the help]. */
function metricWords(metric: string): [string, string, string, string] | undefined {
  const words: Record<string, [string, string, string, string]> = {
    heat: [s.heat, s.shortHeat, s.codeHeat, s.heat],
    hca: [s.hca, s.shortHca, s.codeHca, s.hcaLong],
    water_cold: [s.waterCold, s.shortCold, s.codeCold, s.waterCold],
    water_warm: [s.waterWarm, s.shortWarm, s.codeWarm, s.waterWarm],
    electricity: [s.electricity, s.shortElectricity, s.codeElectricity, s.electricity],
    gas: [s.gas, s.shortGas, s.codeGas, s.gas],
    water_outdoor: [s.waterOutdoor, s.shortOutdoor, s.codeOutdoor, s.waterOutdoor],
  };
  return words[metric];
}

export function metricLabel(metric: string): string {
  return metricWords(metric)?.[0] ?? metric;
}

/** The word the unit screen uses for a metric ("cold", "warm", "heat"). */
export function shortMetric(metric: string): string {
  return metricWords(metric)?.[1] ?? metric;
}

/** The contract's measurement units as the reader writes them (m³ and Einheiten in German). */
export function unitWord(unit: string): string {
  if (language() !== 'de') return unit;
  return ({ m3: 'm³', units: 'Einheiten', unit: 'Einheiten' } as Record<string, string>)[unit] ?? unit;
}

const unknownWord = (value: string) => s.unknownValue({ value });
const REASONS = ['DeviceReplacement', 'DeviceRemoval', 'EndOfLife', 'Defect', 'PeriodEnd', 'Other'] as const;
const ORIGINS = ['recorded', 'assumed_zero', 'first_reading', 'portal_rule', 'month_end_before_range', 'first_known_in_range'] as const;

/** Words for the contract's replacement reasons; an unknown value is shown as received, marked. */
export function reasonWords(reason: string): string {
  return (REASONS as readonly string[]).includes(reason) ? s[reason as (typeof REASONS)[number]] : unknownWord(reason);
}

/** Words for where a segment's baseline comes from. */
export function originWords(origin: string | null | undefined): string {
  if (origin === null || origin === undefined) return s.originUnstated;
  if (origin === 'none') return s.none_origin;
  return (ORIGINS as readonly string[]).includes(origin) ? s[origin as (typeof ORIGINS)[number]] : unknownWord(origin);
}

const METRIC_ORDER = ['heat', 'hca', 'water_warm', 'water_cold', 'electricity', 'gas', 'water_outdoor'];

/** Short metric codes for the Property list, so four totals fit 80 columns; the help lists them as [metric, code, word]. */
export function metricCodes(): [string, string, string][] {
  return METRIC_ORDER.map((m) => [m, metricWords(m)![2], metricWords(m)![3]]);
}

export function metricCode(metric: string): string {
  return metricWords(metric)?.[2] ?? metric;
}

/** Unit types as three letters, so the type column always fits: [type, code, word]. */
export function typeCodes(): [string, string, string][] {
  return [
    ['residential', s.codeResidential, s.residential],
    ['commercial', s.codeCommercial, s.commercial],
    ['technical', s.codeTechnical, s.technical],
    ['traffic', s.codeTraffic, s.traffic],
  ];
}

export function typeCode(type: string): string {
  return typeCodes().find(([x]) => x === type)?.[1] ?? fit(type, 3);
}

/** A unit type in words ("residential", "Wohnen"); a value outside the contract as received. */
export function typeWord(type: string): string {
  return typeCodes().find(([x]) => x === type)?.[2] ?? type;
}
