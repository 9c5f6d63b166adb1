// Rule (Property), § 9a Abs. 2 HeizkostenV: where the floor area (Wohn- oder Nutzfläche) of the units whose
// consumption had to be estimated exceeds 25 % of the area the costs are distributed over,
// the costs go solely by the fixed keys of § 7 Abs. 1 Satz 5 and § 8 Abs. 1 (floor area or
// enclosed space). The HeizkostenV covers heating and warm water only, so cold water,
// electricity and gas get no such finding. Wording and sources: docs/export.md.
import { Dec, dec, formatDecimal, sum, ZERO, type Decimal } from '../../billing/decimal.js';
import { flagMaker } from '../../billing/flags.js';
import type { CodeDeclaration } from '../../billing/types.js';
import type { PlausibilityRule } from '../rule.js';
import { propertyScope, sideState } from '../sides.js';
import type { CurrentFigure } from '../types.js';

/** The codes this rule raises and their severity. */
const codes = { ESTIMATED_AREA_HIGH: 'review', ESTIMATED_AREA_UNKNOWN: 'review' } as const satisfies CodeDeclaration;
const makeFlag = flagMaker(codes);

/** Above this share (percent) of the area the costs go by the fixed keys only. */
export const ESTIMATED_AREA_LIMIT_PERCENT = 25;

/** Cost groups of the HeizkostenV and the metrics billed in them (their area: CurrentFigure.area_m2). */
export const COST_GROUPS = { heating: ['heat', 'hca'], warm_water: ['water_warm'] } as const satisfies Record<string, readonly string[]>;
export type CostGroup = keyof typeof COST_GROUPS;

export interface AreaUnit {
  usage_unit_id: string;
  name: string;
  /** null: no area recorded (or none above 0). */
  area: Decimal | null;
  /** Some figure of the group rests on a calculated or substituted value, was not billed, or has no data. */
  estimated: boolean;
}

export interface EstimatedArea {
  property_id: string;
  group: CostGroup;
  units: AreaUnit[];
  /** Sum of the areas of the estimated units that have one. */
  estimatedArea: Decimal;
  /** Sum of the areas of all units billed in the group that have one. */
  totalArea: Decimal;
  /** Percent, one decimal; null when no unit has an area. */
  percent: Decimal | null;
  /** Above the limit, and no unit's missing area could bring it below. */
  high: boolean;
  /** A unit without an area leaves open whether the share is above the limit. */
  unknown: boolean;
}

/** A figure that says nothing about the unit's consumption: a difference meter's empty row. */
const noMeasurement = (f: CurrentFigure): boolean => sideState(f) === 'absent' && !f.flags.includes('DATA_GAP');

function estimatedFigure(f: CurrentFigure): boolean {
  return f.estimated === true || !dec(f.estimated_value).isZero() || sideState(f) !== 'billed';
}

function groupOf(metric: string): CostGroup | null {
  for (const g of Object.keys(COST_GROUPS) as CostGroup[]) if ((COST_GROUPS[g] as readonly string[]).includes(metric)) return g;
  return null;
}

/** Per Property and cost group: the estimated units' area against all units' billed in it. */
export function estimatedAreas(figures: readonly CurrentFigure[]): EstimatedArea[] {
  const groups = new Map<string, { property_id: string; group: CostGroup; byUnit: Map<string, AreaUnit> }>();
  for (const f of figures) {
    const group = groupOf(f.metric);
    if (f.kind !== 'unit' || f.usage_unit_id === null || group === null || noMeasurement(f)) continue;
    const key = JSON.stringify([f.property_id, group]);
    const g = groups.get(key) ?? { property_id: f.property_id, group, byUnit: new Map<string, AreaUnit>() };
    groups.set(key, g);
    const area = f.area_m2 !== null && f.area_m2 > 0 ? dec(f.area_m2) : null;
    const u = g.byUnit.get(f.usage_unit_id) ?? { usage_unit_id: f.usage_unit_id, name: f.usage_unit_name ?? f.usage_unit_id, area, estimated: false };
    u.estimated ||= estimatedFigure(f);
    g.byUnit.set(f.usage_unit_id, u);
  }
  const areaOf = (list: AreaUnit[]) => sum(list.flatMap((u) => (u.area ? [u.area] : [])));
  return [...groups.values()].map(({ property_id, group, byUnit }) => {
    const units = [...byUnit.values()];
    const estimatedArea = areaOf(units.filter((u) => u.estimated));
    const totalArea = areaOf(units);
    const percent = totalArea.greaterThan(ZERO) ? estimatedArea.div(totalArea).times(100).toDecimalPlaces(1, Dec.ROUND_HALF_UP) : null;
    // A measured unit without an area would add to the total only: above the limit by the known
    // areas is then no proof (70 of 140 m² is 50 %, of 340 m² 20.6 %). An estimated unit without
    // one adds to both, so the known share stays a lower bound of the true one.
    const knownHigh = estimatedArea.times(100).greaterThan(totalArea.times(ESTIMATED_AREA_LIMIT_PERCENT));
    const high = knownHigh && !units.some((u) => !u.estimated && u.area === null);
    const unknown = !high && (knownHigh || units.some((u) => u.estimated && u.area === null));
    return { property_id, group, units, estimatedArea, totalArea, percent, high, unknown };
  });
}

/** Names a finding lists before it counts the rest ("WE 01, …, WE 20 +280"): a message stays readable in a cell. */
const NAMES_SHOWN = 20;

/** The § 9a (2) finding's facts: the areas, the share and the units it rests on, those without an area named. */
function areaFacts(a: EstimatedArea): Record<string, string> {
  const names = (pick: (u: EstimatedArea['units'][number]) => boolean) => {
    const all = a.units.filter(pick).map((u) => u.name);
    return all.slice(0, NAMES_SHOWN).join(', ') + (all.length > NAMES_SHOWN ? ` +${all.length - NAMES_SHOWN}` : '');
  };
  return {
    cost_group: a.group,
    estimated_area: formatDecimal(a.estimatedArea),
    total_area: formatDecimal(a.totalArea),
    // Without every estimated unit's area there is no share to give, only the units to ask about.
    estimated_area_share: a.high ? (a.percent?.toFixed(1) ?? '') : '',
    estimated_units: names((u) => u.estimated),
    units_without_area: names((u) => u.area === null),
  };
}

export const estimatedAreaRule: PlausibilityRule<typeof codes> = {
  codes,
  scope: 'property',
  check(ctx) {
    return {
      findings: estimatedAreas(ctx.figures)
        .filter((a) => a.high || a.unknown)
        .map((a) => {
          const code = a.high ? 'ESTIMATED_AREA_HIGH' : 'ESTIMATED_AREA_UNKNOWN';
          const marked = new Set(a.units.filter((u) => u.estimated).map((u) => u.usage_unit_id));
          const metrics: readonly string[] = COST_GROUPS[a.group];
          const marks = [...ctx.current].filter(([, f]) => f.kind === 'unit' && metrics.includes(f.metric) && marked.has(f.usage_unit_id!)).map(([k]) => k);
          return { code, flag: makeFlag(code, propertyScope(a.property_id), areaFacts(a)), marks };
        }),
    };
  },
};
