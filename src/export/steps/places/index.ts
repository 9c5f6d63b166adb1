// Labels: names beside the ids, so that review.csv, readings.csv and segments.csv read on
// their own (points.ts). While a Property's units are written as they come, a point's
// readings are named from the answers so far; a point shared on purpose is named with all
// its units, so from the first unit with one the readings wait for the Property's end.
import type { ExportStep } from '../../pipeline/index.js';
import { namedSegments, PointIndex, placesOf } from './points.js';

export const placesStep: ExportStep = {
  shape({ answers, bill }) {
    const places = placesOf(answers, bill);
    return { segments: places.segments, readings: places.readings, place: places.of };
  },
  early(property, points) {
    const index = new PointIndex().listed(points);
    let unitName = '';
    return {
      unit(unit, consumption, refused) {
        index.unit(unit, consumption, refused);
        unitName = unit.name;
      },
      segments: (rows) => namedSegments(rows, property.name, () => unitName),
      readings: (rows) => index.readings(rows),
      holdsReadings: (consumption) => consumption.measuring_points.some((c) => (c.unit_share ?? 1) !== 1),
    };
  },
};
