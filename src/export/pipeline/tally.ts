// The run's counts, as the About sheet, the manifest and the summary give them.
import type { PropertyAnswers } from '../../api/walk.js';
import type { PropertyBill } from '../../billing/property.js';
import type { Flag, Severity } from '../../billing/types.js';
import { idKey } from '../../billing/contract.js';

export class Tally {
  readonly counts: { properties: number; units: number; measuring_points: number; plant_points: number };
  readonly flags: Record<Severity, number> = { not_billed: 0, review: 0, info: 0 };
  /** Findings per code. */
  readonly codes: Record<string, number> = {};
  /** Measuring points with any values in the range, each once per Property. */
  pointsWithData = 0;

  constructor(properties: number) {
    this.counts = { properties, units: 0, measuring_points: 0, plant_points: 0 };
  }

  /** `unlisted`: findings counted beyond the ones listed (a step's cap). */
  findings(flags: readonly Flag[], unlisted: readonly { code: string; severity: Severity; count: number }[] = []): void {
    for (const f of flags) {
      this.flags[f.severity]++;
      this.codes[f.code] = (this.codes[f.code] ?? 0) + 1;
    }
    for (const m of unlisted) {
      this.flags[m.severity] += m.count;
      this.codes[m.code] = (this.codes[m.code] ?? 0) + m.count;
    }
  }

  property(answers: PropertyAnswers, bill: Pick<PropertyBill, 'plant'>): void {
    this.counts.units += answers.units.length;
    this.counts.measuring_points += answers.points.length;
    this.counts.plant_points += bill.plant.length;
    const withData = [...answers.units.flatMap((u) => u.consumption.measuring_points), ...answers.plantPoints.map((p) => p.consumption)].filter(
      (c) => c.segments.length > 0,
    );
    this.pointsWithData += new Set(withData.map((c) => idKey(c.measuring_point_id))).size;
  }
}
