// Plant-room and main meters (usage_unit_id null): billed per point with billable_value
// (rule 1), never spread over units. Rule 8: "no unit" and "no system link" are independent.
import type { MeasuringPoint, MeasuringPointConsumption } from '../api/types.js';
import { formatDecimal } from './decimal.js';
import { kindBreak, type ContractBreak } from './contract.js';
import { codesOf, makeFlag } from './flags.js';
import { billPoint, sortSegments } from './point.js';
import { deviceNotSent } from './listed-absent.js';
import { notAsListed } from './listed-facts.js';
import type { Flag, PlantPointRow, ReadingRow, SegmentRow } from './types.js';

export interface PlantInput {
  property: { id: string; name: string };
  point: MeasuringPoint;
  consumption: MeasuringPointConsumption;
  /** The Property's effective range (the readings endpoint echoes none). */
  range?: { from: string; to: string };
  /** A break found across the Property's points (its device under another point at the same time: devicesAtTwoPoints). */
  cross?: ContractBreak | undefined;
}

export interface PlantBill {
  row: PlantPointRow;
  segments: SegmentRow[];
  readings: ReadingRow[];
  flags: Flag[];
}

export function billPlantPoint({ property, point, consumption, range, cross }: PlantInput): PlantBill {
  const scope = { property_id: property.id, usage_unit_id: null, measuring_point_id: consumption.measuring_point_id, device_id: null };
  const unallocated = makeFlag('UNALLOCATED_POINT', scope);
  // the readings answer relabelling the listed meter (heat in m3): not billed
  const relabelled = kindBreak(consumption, point);
  // the list's active device without a segment (a replacement's new device left out): not billed, as under a unit
  const device = range && point.active_device ? deviceNotSent(consumption, point.active_device, range) : null;
  const missing = device ? [makeFlag('LISTED_DEVICE_NOT_SENT', scope, device)] : [];
  const contradicted = notAsListed(consumption, { device: point.active_device ?? undefined, difference: point.is_difference_meter }, scope);
  const bill = billPoint(
    consumption,
    {
      property_id: property.id,
      usage_unit_id: null,
      is_system_linked: point.is_system_linked,
      extraFlags: [unallocated, ...[relabelled, cross].filter((b) => !!b).map((b) => makeFlag(b.code, scope, b.facts)), ...missing, ...contradicted],
      range,
    },
    null,
  );
  const last = sortSegments(consumption.segments).at(-1);
  const row: PlantPointRow = {
    property_id: property.id,
    property_name: property.name,
    measuring_point_id: consumption.measuring_point_id,
    metric: consumption.metric,
    unit: consumption.unit,
    localization: point.localization ?? null,
    is_difference_meter: consumption.is_difference_meter,
    is_system_linked: bill.is_system_linked,
    billable_value: formatDecimal(bill.billed),
    status: last ? last.period_consumption.status : null,
    review_flags: codesOf(bill.flags),
  };
  return { row, segments: bill.segments, readings: bill.readings, flags: bill.flags };
}
