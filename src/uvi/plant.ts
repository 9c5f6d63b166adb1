// Which of a Property's points without a unit feed the conversion. The contract has no
// field saying a plant-room heat meter measures warm water only, so its localization is
// read ("Wärmezähler Warmwasser", "WMZ TWW", "WMZ Speicherladung"); docs/uvi.md says so, and a
// later option may let the landlord name the point instead. Pure.
import type { MeasuringPoint, MeasuringPointConsumption } from '../api/types.js';
import { idKey } from '../billing/contract.js';
import { dec, type Decimal } from '../billing/decimal.js';
import { WW_TEMPERATURE_MAX } from './inputs/month.js';
import type { Month } from './months.js';
import type { PlantPoints } from './property.js';
import { KWH_PER_M3_WARM_WATER } from './bounds.js';
import { missingMonth } from './point-months.js';
import type { Finding, PointMonth } from './types.js';

// The names installers and metering services give the heat meter of the warm-water heating (Warmwasser-
// or Trinkwassererwärmung, WW, TWW, TWE, the store's Speicherladung or Boiler, a Frischwasserstation;
// Brauchwasser is the older word), read on the lower-cased name with ä, ö, ü, ß spelt out (nameKey). A
// Pufferspeicher holds heating water, and an English "boiler room" or "gas boiler" is the heating plant,
// not the German Boiler (a warm-water store). A name none of these fits is the plant's heat meter.
const WARM_WATER = new RegExp(
  [
    String.raw`warm\s*-?\s*wasser`,
    'trinkwasser',
    'brauchwasser',
    'frischwasser',
    String.raw`speicher(?<!puffer\s*-?\s*speicher)\s*-?\s*lad`,
    String.raw`boiler(?<!(?:main|gas|oil|central|heating)\s*boiler)(?!\s*-?\s*(?:room|house|plant))`,
    String.raw`\b(?:t?ww|wwb|wwe|twe|pwh)\b`,
    String.raw`hot\s*-?\s*water`,
    String.raw`\bdhw\b`,
  ].join('|'),
);
// A name that also speaks of heating ("Heizung und Warmwasser") is the whole plant's meter; one that
// negates warm water ("ohne Warmwasser") is not warm water's. Reading such a name as the warm-water heat
// meter moves the heating heat into warm water.
// The heating service, not the rooms a plant meter sits in (Heizraum, Heizungskeller, Heizzentrale).
const HEATING = /heizung(?!s?\s*-?(?:raum|keller|zentrale))|heizkreis|heizwaerme|raumwaerme|heating(?!\s*room)|space\s*heat|\bhzg\b/;
// Not "no", "non": "No. 2" numbers a meter.
const NEGATION = /\bohne\b|\bnicht\b|\bkein|\bexkl|\bexcl|\bwithout\b|w\/o/;
// Warm water named as included in something else ("Heizzentrale inkl. TWW", "Übergabestation mit TWW",
// "Hausanschluss (mit Warmwasserbereitung)", "Fernwärme zzgl. TWW", "Heizzentrale inkl. zentraler
// Warmwasserbereitung", "Total heat & hot water", "Fernwärme/Warmwasser", "Warmwasser inbegriffen"): the meter
// measures more than warm water. The inclusion word stands before the warm-water word, at most two words
// apart: "TWW inkl. Zirkulation", "WMZ Warmwasser Haus 1 und 2" or "Aufgang A+B" name a warm-water heat meter
// (its circulation, the houses it serves), and reading such a one as the whole plant's puts warm-water heat
// into every allocator flat's heating. "inkl"/"incl" also begin inklusive, inclusive, including.
const INCLUDED = new RegExp(
  String.raw`(?:\binkl|\bincl|\beinschl|\bzzgl|\bzuzgl|\bsamt\b|\bmit\b|\bund\b|\bwith\b|\band\b|\bplus\b|\+|&|/)[a-z]*\.?,? ?(?:[a-z0-9.]+ ){0,2}[(/-]? ?(?:${WARM_WATER.source})|inbegriffen|\bincluded\b`,
);
// The whole supply's meter by its own word ("Hauptwärmezähler", "Wärme-Hauptzähler", "Gesamt-WMZ", "Wärmeerzeuger",
// "Fernwärme", "main heat meter", "total heat"), not a street, house or place ("Hauptstraße", "Haupthaus",
// "Frankfurt am Main", "Warmwasser Gesamt").
const WHOLE_SUPPLY = /(?:haupt|gesamt) ?-? ?(?:waerme(?:mengen)?zaehler|wmz|zaehler)|waerme ?-? ?haupt|erzeuger|fernwaerme|\bmain ?heat\b|\btotal ?heat\b/;
/** Warm water named, but beside heating, included in something else or beside the whole supply's word, or negated: the whole plant's meter, for review. */
const unclearWarmWater = (key: string) => HEATING.test(key) || NEGATION.test(key) || INCLUDED.test(key) || WHOLE_SUPPLY.test(key);

/**
 * A name as the patterns read it: lower case, umlauts and ß spelt out (composed or not: "Waerme", "Wärme"),
 * each run of white space one space. A hostile answer's 100,000 spaces between "warm" and "x" made the
 * patterns' `\s*-?\s*` try every split: 29 s for one name; a run of one space has none to try.
 */
const nameKey = (name: string) =>
  name.normalize('NFC').toLowerCase().replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss').replace(/\s+/g, ' ');

/** A plant heat meter's name that mentions warm water but was not read as the warm-water heat meter. */
export interface UnclearPlantName {
  measuring_point_id: string;
  localization: string;
}

/** The points without a unit by what they measure, and the names that mention warm water yet were read as the plant's heat meter. */
export function classifyPlant(points: readonly { point: MeasuringPoint; consumption: MeasuringPointConsumption }[]): PlantPoints {
  const out: PlantPoints = { heat: [], warmWaterHeat: [], warmWaterVolume: [], unclearNames: [], names: {} };
  for (const { point, consumption } of points) {
    if (point.usage_unit_id != null) continue;
    const name = point.localization ?? '';
    if (consumption.metric === 'water_warm') {
      out.warmWaterVolume.push(consumption);
      (out.names as Record<string, string>)[idKey(consumption.measuring_point_id)] = name;
    }
    if (consumption.metric !== 'heat') continue;
    const key = nameKey(name);
    const namesWarmWater = WARM_WATER.test(key);
    const unclear = namesWarmWater && unclearWarmWater(key);
    (namesWarmWater && !unclear ? out.warmWaterHeat : out.heat).push(consumption);
    (out.names as Record<string, string>)[idKey(consumption.measuring_point_id)] = name;
    if (unclear) out.unclearNames!.push({ measuring_point_id: consumption.measuring_point_id, localization: name });
  }
  return out;
}

/** How many of these plant meters there are, and up to five of their names (else ids), for review.csv: JSON. */
export function plantMeterNames(points: readonly MeasuringPointConsumption[], plant: PlantPoints): string {
  const ids = [...new Set(points.map((c) => idKey(c.measuring_point_id)))];
  return JSON.stringify({ count: ids.length, names: ids.slice(0, 5).map((id) => plant.names?.[id] || id) });
}

/** § 9 Abs. 2 Satz 2 HeizkostenV's factor, kWh/(m³·K). */
const FACTOR_9_2 = 2.5;
/**
 * The most heat a m³ of warm water can carry by § 9 Abs. 2's formula at the widest temperatures one
 * can defend: t_w at the highest mean --ww-temperature accepts (80 °C, above the 70 °C of a thermal
 * disinfection) and cold water at 0 °C instead of the formula's 10 °C (water colder than that is ice):
 * 2.5 kWh/(m³·K) × 80 K = 200 kWh/m³. The 2.5 already holds storage and circulation losses (heating
 * water alone takes 1.163). A warm-water heat meter above it measures more than warm water.
 */
export const WW_MAX_KWH_PER_M3 = dec(FACTOR_9_2 * WW_TEMPERATURE_MAX);

/**
 * The warm-water heat per m³ over the 13 months (the months with both figures), where it lies above
 * WW_MAX_KWH_PER_M3; null where it does not or cannot be judged. Over the months, not per month: in a
 * month of little tapping the circulation's losses alone may pass the bound.
 */
export function implausibleWarmWaterHeat(heat: readonly PointMonth[], volume: readonly PointMonth[]): { from: Month; to: Month; kwhPerM3: Decimal } | null {
  const both = heat.flatMap((h, i) => {
    const v = volume[i]?.value;
    return h.value !== null && v != null ? [{ month: h.month, kwh: h.value, m3: v }] : [];
  });
  const m3 = both.reduce((a, b) => a.plus(b.m3), dec(0));
  if (both.length === 0 || !m3.greaterThan(0)) return null;
  const perM3 = both.reduce((a, b) => a.plus(b.kwh), dec(0)).div(m3);
  return perM3.greaterThan(WW_MAX_KWH_PER_M3) ? { from: both[0]!.month, to: both.at(-1)!.month, kwhPerM3: perM3 } : null;
}

/** A uvi finding review.csv shows, not an error code (src/core/codes.ts). */
const IMPLAUSIBLE: Finding['code'] = 'WARM_WATER_HEAT_IMPLAUSIBLE';

/** The warm-water heat meter's months, or null (§ 9 Abs. 2 then, with a finding) where it gives more kWh per m³ than warm water can carry. */
export function plausibleWarmWaterMeter(propertyId: string, meter: PointMonth[] | null, volume: PointMonth[] | null, findings: Finding[]): PointMonth[] | null {
  const bad = meter && volume ? implausibleWarmWaterHeat(meter, volume) : null;
  if (!bad) return meter;
  const facts = { from: bad.from, to: bad.to, kwh_per_m3: bad.kwhPerM3.toFixed(1), max: WW_MAX_KWH_PER_M3.toFixed(0) };
  findings.push({ code: IMPLAUSIBLE, property_id: propertyId, usage_unit_id: null, service: 'HOT_WATER', facts });
  return null;
}

/**
 * The warm-water heat meter's months as the heating heat may subtract them. A month above the bound of
 * KWH_PER_M3_WARM_WATER per m³ of the Property's warm water is no warm-water heat, and a month with heat but no
 * known volume (missing, or 0 in the whole Property) cannot be checked against it: subtracted, either would move
 * heat between heating and warm water unseen, so such a month is missing for both.
 */
export function judgedWarmWaterMonths(meter: readonly PointMonth[], volume: readonly PointMonth[] | null): PointMonth[] {
  return meter.map((m, i) => {
    if (m.value === null || m.value.isZero()) return m;
    const v = volume?.[i]?.value;
    if (v == null || !v.greaterThan(0)) return missingMonth(m.month, 'warm_water_heat_unjudged');
    return m.value.div(v).greaterThan(KWH_PER_M3_WARM_WATER) ? missingMonth(m.month, 'warm_water_heat_above_bound') : m;
  });
}
