// The monthly information over answers billing has judged first, as the uvi step runs it: billing's
// verdict (billProperty → uviVerdict) decides which meters the figures may use.
import type { MeasuringPoint } from '../../src/api/types.js';
import { billProperty } from '../../src/billing/index.js';
import { DEFAULT_BENCHMARK } from '../../src/uvi/benchmark.js';
import { absentPoints, removedPoints } from '../../src/uvi/absent.js';
import { classifyPlant } from '../../src/uvi/plant.js';
import { propertyUvi } from '../../src/uvi/property.js';
import { uviVerdict } from '../../src/uvi/verdict.js';
import { PROPERTY, aPlantPoint, aUnitEntry, pointListOf } from './builders.js';
import { MONTHS } from './uvi-fixtures.js';

export const RANGE13 = { from: '2024-11-01', to: '2025-11-30' };
type Entry = ReturnType<typeof aUnitEntry>;
type Plant = ReturnType<typeof aPlantPoint>;

/** Billing and the uvi over the same answers of PROPERTY's 13 months to November 2025. */
export function billedUvi(units: Entry[], plant: Plant[] = [], points: MeasuringPoint[] = pointListOf({ property: PROPERTY, units, plant })) {
  const bill = billProperty({ property: PROPERTY, range: RANGE13, units, plantPoints: plant, points });
  const r = propertyUvi({
    property_id: PROPERTY.id,
    months: MONTHS,
    units,
    plant: classifyPlant(plant),
    benchmark: DEFAULT_BENCHMARK,
    refused: uviVerdict(bill).refused,
    absent: absentPoints(points, units),
    removed: removedPoints(points),
  });
  return { bill, r };
}
