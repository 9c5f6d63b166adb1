// A unit's monthly consumption information (§ 6a HeizkostenV, docs/uvi.md) in browse: the
// 13 months come from browse's own loadProperty over those months (the export's walk, cached
// per Property and range), and the kWh from the same pure core the letter uses (propertyUvi,
// with billing's verdict on the same answers), computed once per loaded Property and kept with it.
import type { Property } from '../api/types.js';
import { DEFAULT_BENCHMARK, classifyPlant, propertyUvi, rangeOf, thirteenMonths, type BenchmarkTable, type Month, type PropertyUvi } from '../uvi/index.js';
import { WW_TEMPERATURE_DEFAULT, lastCompletedMonth } from '../uvi/inputs/month.js';
import { plantMetersOf } from '../uvi/inputs/plant-meters.js';
import { absentPoints, removedPoints } from '../uvi/absent.js';
import { uviVerdict } from '../uvi/verdict.js';
import type { BrowseData, LoadProgress, PropertyBundle } from './data.js';
import type { DateRange } from './range.js';

/** What the monthly screen draws: the Property's answers over the 13 months and their conversion. */
export interface UviView {
  month: Month;
  bundle: PropertyBundle;
  uvi: PropertyUvi;
  benchmark: BenchmarkTable;
  wwTemperature: number;
}

/**
 * The letter's month: the last completed one, or the last month of a range the clerk chose
 * (--year, --from/--to or `y`), never one that has not ended.
 */
export function uviMonth(range: DateRange, chosen: boolean, today: Date): Month {
  const last = lastCompletedMonth(today);
  if (!chosen) return last;
  const end = range.to.slice(0, 7);
  return end < last ? end : last;
}

/** The range that covers the 13 months ending with `month`: one consumption request per unit. */
export function uviRange(month: Month): DateRange {
  return rangeOf(thirteenMonths(month));
}

// Keyed by the loaded answers: a reload (new answers) computes again, a revisit does not.
const computed = new WeakMap<PropertyBundle, UviView>();

/** The Property's 13 months and every unit's figures: loaded through `data` (its cache), converted once. */
export async function loadUvi(data: BrowseData, property: Property, month: Month, onProgress?: (p: LoadProgress) => void): Promise<UviView> {
  const bundle = await data.loadProperty(property, uviRange(month), onProgress);
  let view = computed.get(bundle);
  if (!view) {
    // the letter's inputs where the clerk gave them (browse --benchmark, --ww-temperature, --plant-meters)
    const benchmark = data.uviSettings?.benchmark ?? DEFAULT_BENCHMARK;
    const wwTemperature = data.uviSettings?.wwTemperature ?? WW_TEMPERATURE_DEFAULT;
    const uvi = propertyUvi({
      // as the letter: no meter billing refuses (the bundle's bill is over the same 13 months)
      refused: uviVerdict(bundle.bill).refused,
      absent: absentPoints([...bundle.points.values()], bundle.units),
      removed: removedPoints([...bundle.points.values()]),
      property_id: property.id,
      months: thirteenMonths(month),
      units: bundle.units,
      plant: classifyPlant(bundle.plant, plantMetersOf(data.uviSettings?.plantMeters, property.id)),
      benchmark,
      wwTemperature,
    });
    view = { month, bundle, uvi, benchmark, wwTemperature };
    computed.set(bundle, view);
  }
  return view;
}
