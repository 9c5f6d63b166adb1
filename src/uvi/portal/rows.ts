// The rows of uvi.csv / uvi.json (one per unit, service and month: the consumption-data
// fields a tenant portal or ERP imports, beside meterdata's ids, names and the native
// figures) and of the letters' review (units with no letter or an incomplete one, the
// reason in words). Pure: parsed objects in, plain rows out.
import type { UsageUnit } from '../../api/types.js';
import { Dec, formatDecimal, type Decimal } from '../../billing/decimal.js';
import { idKey } from '../../billing/contract.js';
import { valueWord } from '../../billing/texts-values.js';
import type { Flag, FlagCode } from '../../billing/types.js';
import { inLanguage, num, type Lang } from '../../i18n/index.js';
import { monthWords, reasonWords } from '../compare.js';
import type { Month } from '../months.js';
import { SERVICES, type Finding, type Method, type MissingReason, type Service, type UnitUvi } from '../types.js';
import { uviFlagMessage } from './findings.js';
import { portalTexts } from './texts-portal.js';

/** Decimals kept in the file: Wh for kWh, a tenth of a litre for m³, allocator units to a thousandth (a share can be 1/3). */
const KEEP = { kWh: 3, m3: 4, unit: 3 } as const;

function decimal(v: Decimal | null, unit: keyof typeof KEEP): string | null {
  return v === null ? null : formatDecimal(v.toDecimalPlaces(KEEP[unit], Dec.ROUND_HALF_UP));
}

export interface UviRow {
  property_id: string;
  property_name: string;
  usage_unit_id: string;
  usage_unit_name: string;
  erp_ref: string | null;
  unit_type: string;
  month: Month;
  /** True on the letter's month (the other twelve are its comparisons and chart). */
  letter_month: boolean;
  service: Service;
  /** kWh for heating and hot water, m3 for cold water. */
  unit_of_measure: 'kWh' | 'm3';
  /** null: no value (see errors); never 0 for a missing month. */
  amount: string | null;
  converted: boolean;
  estimated: boolean;
  /** Why there is no amount: the reasons' codes (docs/uvi.md). */
  errors: MissingReason[];
  benchmark_amount: string | null;
  native_amount: string | null;
  native_unit: 'kWh' | 'unit' | 'm3';
  method: Method;
}

export interface PortalUnit {
  unit: Pick<UsageUnit, 'id' | 'name' | 'unit_type'>;
  erpRef: string | null;
  uvi: UnitUvi;
}

export interface PortalProperty {
  property: { id: string; name: string };
  month: Month;
  units: readonly PortalUnit[];
  /** Findings of the Property as a whole (propertyUvi's `findings`). */
  findings: readonly Finding[];
}

/** One row per unit, service and month, in the units' and months' order. */
export function uviRows(p: PortalProperty): UviRow[] {
  return p.units.flatMap(({ unit, erpRef, uvi }) =>
    uvi.services.flatMap((s) =>
      s.months.map((m): UviRow => {
        const cold = s.service === 'COLD_WATER';
        const amount = cold ? m.native : m.kwh;
        return {
          property_id: p.property.id,
          property_name: p.property.name,
          usage_unit_id: unit.id,
          usage_unit_name: unit.name,
          erp_ref: erpRef,
          unit_type: unit.unit_type,
          month: m.month,
          letter_month: m.month === p.month,
          service: s.service,
          unit_of_measure: cold ? 'm3' : 'kWh',
          amount: decimal(amount, cold ? 'm3' : 'kWh'),
          converted: m.converted,
          estimated: amount !== null && m.estimated,
          errors: amount === null ? [...new Set(m.reasons)] : [],
          benchmark_amount: decimal(m.benchmark_kwh, 'kWh'),
          native_amount: decimal(m.native, s.native_unit),
          native_unit: s.native_unit,
          method: s.method,
        };
      }),
    ),
  );
}

export const REVIEW_CODES = [
  'NO_LETTER',
  'MONTH_MISSING',
  'MONTH_NO_KWH',
  'NO_PLANT_HEAT_METER',
  'NO_FLOOR_AREA',
  'NO_BENCHMARK_FOR_TYPE',
  'WARM_WATER_HEAT_NOT_KNOWN',
  'AREA_IMPLAUSIBLE',
  'POINT_NOT_SENT',
  'PLANT_METER_NAME_UNCLEAR',
  'PLANT_METER_LISTED_UNKNOWN',
  'PLANT_HEAT_METERS_SEVERAL',
  'WARM_WATER_HEAT_METERS_SEVERAL',
  'WARM_WATER_VOLUME_METERS_SEVERAL',
  'WARM_WATER_HEAT_IMPLAUSIBLE',
] as const;
export type ReviewCode = (typeof REVIEW_CODES)[number];

export interface UviReviewRow {
  /**
   * none: no letter for the unit; incomplete: a letter missing what § 6a Abs. 2 asks for; check: the
   * Property's figures rest on an assumption, or billing's finding about a meter (its code and words as in the export's review.csv).
   */
  letter: 'none' | 'incomplete' | 'check';
  code: ReviewCode | FlagCode;
  property_id: string;
  property_name: string;
  usage_unit_id: string | null;
  usage_unit_name: string | null;
  erp_ref: string | null;
  service: Service | null;
  message: string;
}

type Scope = Pick<UviReviewRow, 'property_id' | 'property_name' | 'usage_unit_id' | 'usage_unit_name' | 'erp_ref'>;

// A review row's code is a uvi finding, not an error code (src/core/codes.ts).
function review(letter: UviReviewRow['letter'], reviewCode: ReviewCode | FlagCode, scope: Scope, service: Service | null, message: string): UviReviewRow {
  return { letter, code: reviewCode, ...scope, service, message };
}

function unitReview(p: PortalProperty, u: PortalUnit, lang: Lang): UviReviewRow[] {
  const t = inLanguage(portalTexts, lang);
  const base = { property_id: p.property.id, property_name: p.property.name, usage_unit_id: u.unit.id, usage_unit_name: u.unit.name, erp_ref: u.erpRef };
  const metered = u.uvi.services.filter((s) => s.service !== 'COLD_WATER').sort((a, b) => SERVICES.indexOf(a.service) - SERVICES.indexOf(b.service));
  if (metered.length === 0) return [review('none', 'NO_LETTER', base, null, t.noLetter)];
  const out: UviReviewRow[] = [];
  const serviceWord = (s: Service) => (s === 'HEATING' ? t.heating : t.hotWater);
  const when = monthWords(p.month, lang);
  for (const s of metered) {
    const m = s.months.find((x) => x.month === p.month);
    const reasons = reasonWords(m?.reasons ?? ['no_device'], lang).join('; ');
    const row = (code: ReviewCode, message: string) => review('incomplete', code, base, s.service, message);
    if (!m || (m.kwh === null && m.native === null)) out.push(row('MONTH_MISSING', t.monthMissing({ service: serviceWord(s.service), when, reasons })));
    else if (m.kwh === null) out.push(row('MONTH_NO_KWH', t.monthNoKwh({ service: serviceWord(s.service), when, reasons })));
    for (const f of u.uvi.findings.filter((x) => x.service === s.service)) {
      if (f.code === 'NO_FLOOR_AREA') out.push(row('NO_FLOOR_AREA', t.noFloorArea({ service: serviceWord(s.service) })));
      else if (f.code === 'NO_BENCHMARK_FOR_TYPE')
        out.push(
          row('NO_BENCHMARK_FOR_TYPE', t.noBenchmarkForType({ service: serviceWord(s.service), type: valueWord('unit_type', f.facts?.unit_type ?? '', lang) })),
        );
      else if (f.code === 'NO_PLANT_HEAT_METER') out.push(row('NO_PLANT_HEAT_METER', t.noPlantHeatMeter));
      else if (f.code === 'AREA_IMPLAUSIBLE')
        out.push(
          row(
            'AREA_IMPLAUSIBLE',
            t.areaImplausible({ service: serviceWord(s.service), area: lang === 'de' ? (f.facts?.area ?? '').replace('.', ',') : (f.facts?.area ?? '') }),
          ),
        );
    }
  }
  return out;
}

/** A meter's name as review.csv quotes it: a hostile answer's 20,000 letters are not a message. */
function shortName(name: string): string {
  const chars = [...name];
  return chars.length <= 120 ? name : `${chars.slice(0, 119).join('')}…`;
}

const SEVERAL = {
  PLANT_HEAT_METERS_SEVERAL: 'plantHeatMetersSeveral',
  WARM_WATER_HEAT_METERS_SEVERAL: 'warmWaterHeatMetersSeveral',
  WARM_WATER_VOLUME_METERS_SEVERAL: 'warmWaterVolumeMetersSeveral',
} as const;

const isSeveral = (code: string): code is keyof typeof SEVERAL => Object.hasOwn(SEVERAL, code);

/** The several plant meters' finding in words: their names quoted and cut (plantMeterNames: up to five, and how many). */
function severalMeters(code: keyof typeof SEVERAL, meters: string, lang: Lang): string {
  let facts: { count?: unknown; names?: unknown } = {};
  try {
    facts = JSON.parse(meters) as typeof facts;
  } catch {
    // a finding built elsewhere without the facts: no names to quote
  }
  const names = Array.isArray(facts.names) ? facts.names.map((x) => String(x)) : [];
  const count = typeof facts.count === 'number' ? facts.count : names.length;
  const quoted = names.map((x) => (lang === 'de' ? `„${shortName(x)}“` : `"${shortName(x)}"`));
  if (count > names.length) quoted.push('…');
  const t = inLanguage(portalTexts, lang);
  return t[SEVERAL[code]]({ count: String(count), names: quoted.join(', ') });
}

/** One of the Property's own findings (its assumptions, a meter it lacks or cannot read) in words of `lang`; none for the units' findings. */
function propertyRows(p: PortalProperty, f: Finding, lang: Lang, scope: Scope, at: (unitId: string | null) => Scope): UviReviewRow[] {
  const t = inLanguage(portalTexts, lang);
  const facts = f.facts ?? {};
  if (f.code === 'WARM_WATER_HEAT_NOT_KNOWN') return [review('check', f.code, scope, f.service, t.warmWaterHeatNotKnown)];
  if (f.code === 'PLANT_METER_LISTED_UNKNOWN')
    return [review('check', f.code, scope, f.service, t.plantMeterListedUnknown({ line: facts.line ?? '', id: facts.measuring_point_id ?? '' }))];
  if (f.code === 'PLANT_METER_NAME_UNCLEAR')
    return [review('check', f.code, scope, f.service, t.plantMeterNameUnclear({ name: shortName(facts.localization ?? '') }))];
  if (isSeveral(f.code)) return [review('check', f.code, scope, f.service, severalMeters(f.code, facts.meters ?? '', lang))];
  if (f.code === 'WARM_WATER_HEAT_IMPLAUSIBLE') {
    const when = t.fromTo({ from: monthWords(facts.from ?? p.month, lang), to: monthWords(facts.to ?? p.month, lang) });
    const perM3 = num(Number(facts.kwh_per_m3), lang);
    return [review('check', f.code, scope, f.service, t.warmWaterHeatImplausible({ when, perM3, max: num(Number(facts.max), lang) }))];
  }
  if (f.code !== 'POINT_NOT_SENT') return [];
  const point = { id: facts.measuring_point_id ?? '', metric: valueWord('metric', facts.metric ?? '', lang) };
  return [review('check', f.code, at(f.usage_unit_id), null, t.pointNotSent(point))];
}

/**
 * The units whose letter is missing or incomplete, and the Property's assumptions, in words of `lang`;
 * then billing's findings the uvi takes over (verdict.ts: shownFinding), in words for a letter (findings.ts: uviFlagMessage).
 */
export function uviReviewRows(p: PortalProperty, lang: Lang, billed: readonly Flag[] = []): UviReviewRow[] {
  const scope = { property_id: p.property.id, property_name: p.property.name, usage_unit_id: null, usage_unit_name: null, erp_ref: null };
  const names = new Map(p.units.map((u) => [idKey(u.unit.id), u]));
  const at = (unitId: string | null): Scope => {
    const u = unitId === null ? undefined : names.get(idKey(unitId));
    return { ...scope, usage_unit_id: unitId, usage_unit_name: u?.unit.name ?? null, erp_ref: u?.erpRef ?? null };
  };
  const property = p.findings.flatMap((f) => propertyRows(p, f, lang, scope, at));
  const found = billed.map((f) => review('check', f.code, at(f.usage_unit_id), null, uviFlagMessage(f, lang)));
  return [...property, ...p.units.flatMap((u) => unitReview(p, u, lang)), ...found];
}
