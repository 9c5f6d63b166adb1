// § 9 Abs. 2 HeizkostenV: the heat in a volume of warm water where no heat meter measures it. Pure.
import { dec, type Decimal } from '../billing/decimal.js';

/** § 9 Abs. 2 Satz 2 HeizkostenV: 2.5 kWh/(m³·K). */
export const WW_FACTOR = dec('2.5');
/** The cold-water temperature the formula subtracts, °C. */
export const COLD_WATER_C = 10;

/** Q = 2.5 kWh/(m³·K) × V × (t_w − 10 °C): the heat in a warm-water volume. */
export function warmWaterKwh(volumeM3: Decimal, wwTemperature: number): Decimal {
  if (!Number.isFinite(wwTemperature) || wwTemperature <= COLD_WATER_C || wwTemperature > 100) throw new RangeError(`t_w out of range: ${wwTemperature}`);
  return WW_FACTOR.times(volumeM3).times(dec(wwTemperature).minus(COLD_WATER_C));
}
