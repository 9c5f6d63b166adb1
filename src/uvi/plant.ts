// Which of a Property's points without a unit feed the conversion. The contract has no
// field saying a plant-room heat meter measures warm water only, so its localization is
// read ("Wärmezähler Warmwasser", "WMZ TWW"); docs/uvi.md says so, and a later option may
// let the landlord name the point instead. Pure.
import type { MeasuringPoint, MeasuringPointConsumption } from '../api/types.js';
import type { PlantPoints } from './property.js';

const WARM_WATER = /warm\s*-?\s*wasser|trinkwasser|\bt?ww\b|hot\s*water|\bdhw\b/i;

export function classifyPlant(points: readonly { point: MeasuringPoint; consumption: MeasuringPointConsumption }[]): PlantPoints {
  const out: PlantPoints = { heat: [], warmWaterHeat: [], warmWaterVolume: [] };
  for (const { point, consumption } of points) {
    if (point.usage_unit_id != null) continue;
    if (consumption.metric === 'heat') (WARM_WATER.test(point.localization ?? '') ? out.warmWaterHeat : out.heat).push(consumption);
    else if (consumption.metric === 'water_warm') out.warmWaterVolume.push(consumption);
  }
  return out;
}
