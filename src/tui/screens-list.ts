// Rows of the two list screens: all Properties, and one Property's units with its
// plant-room and main meters.
import { Decimal } from 'decimal.js';
import type { Property } from '../api/types.js';
import type { Flag } from '../billing/types.js';
import { compareUnits } from '../billing/order.js';
import type { PropertyBundle } from './data.js';
import { addressesLine, cell, qty } from './format.js';
import { metricCode, metricLabel, shortMetric, typeCode, typeWord, unitWord } from './words.js';
import { flagCountSpan, heading, row, type Row, type Span } from './rows.js';
import { s } from './texts-screens.js';

export interface Screen {
  /** The last part of the breadcrumb, for detail screens. */
  title?: string;
  /** The column header line. */
  columns: string;
  rows: Row[];
}

export function propertiesScreen(list: Property[], flagsOf: (id: string) => Flag[] | null, width: number): Screen {
  const nameW = Math.max(12, Math.floor((width - 18) * 0.4));
  const addrW = Math.max(10, width - 18 - nameW);
  const columns = `  ${cell(s.colProperty, nameW)} ${cell(s.colAddress, addrW)} ${cell(s.colUnits, 6, 'right')}${cell(s.colFlags, 7, 'right')}`;
  const rows = list.map((p) => {
    const address = addressesLine(p.addresses ?? []);
    const flags = flagCountSpan(flagsOf(p.id));
    return row(
      `p:${p.id}`,
      [
        { text: cell(p.name, nameW), bold: true },
        { text: ` ${cell(address, addrW)} ` },
        { text: cell(p.usage_unit_count === null ? '?' : String(p.usage_unit_count), 6, 'right') },
        { ...flags, text: cell(flags.text, 7, 'right') },
      ],
      { filterText: `${p.name} ${address}`, open: { kind: 'property', propertyId: p.id } },
    );
  });
  return { columns, rows };
}

/** "heat 1234.5 kWh  warm 12.3 m3": one unit's billed totals per metric. */
export function totalsText(rows: { metric: string; unit: string; billable_value: string }[]): string {
  return rows.map((r) => `${shortMetric(r.metric)} ${qty(r.billable_value)} ${unitWord(r.unit)}`).join('  ');
}

/** "H 1234.5 kWh  WW 12.3 m3" (units only when there is room): the Property list's column; the help lists the codes. */
export function shortTotalsText(rows: { metric: string; unit: string; billable_value: string }[], units: boolean): string {
  return rows.map((r) => `${metricCode(r.metric)} ${qty(r.billable_value)}${units ? ` ${unitWord(r.unit)}` : ''}`).join('  ');
}

/** Where a flag arises, in words: "WE 03 · heat point 1a2b3c4d · device WMZ-1". */
export function flagWhere(b: PropertyBundle, f: Flag): string {
  const unit = f.usage_unit_id ? b.units.find((u) => u.unit.id === f.usage_unit_id) : undefined;
  const points = unit ? unit.consumption.measuring_points : b.plant.map((p) => p.consumption);
  const c = f.measuring_point_id ? points.find((p) => p.measuring_point_id === f.measuring_point_id) : undefined;
  const seg = f.device_id ? c?.segments.find((s) => s.device_id === f.device_id) : undefined;
  return [
    unit?.unit.name ?? (f.measuring_point_id ? s.plantPlace : ''),
    c
      ? s.pointOf({ metric: metricLabel(c.metric), id: c.measuring_point_id.slice(0, 8) })
      : f.measuring_point_id
        ? s.point({ id: f.measuring_point_id.slice(0, 8) })
        : '',
    seg ? s.device({ serial: seg.serial }) : f.device_id ? s.device({ serial: f.device_id.slice(0, 8) }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

export function floorText(floor: string | null, position: string | null): string {
  return [floor, position].filter(Boolean).join(' ') || '–';
}

export function propertyScreen(b: PropertyBundle, width: number, titleOf: (f: Flag) => string): Screen {
  // At 80 columns four totals (codes, no units) must fit; wider terminals give the
  // spare room to units in the totals, then to names and floor/position.
  const units = width >= 100;
  const spare = Math.max(0, width - (units ? 100 : 80));
  const nameW = 12 + Math.floor(spare * 0.3);
  const typeW = 3;
  const floorW = 11 + Math.floor(spare * 0.3);
  const flagsW = 5;
  const totalsW = Math.max(10, width - 3 - nameW - typeW - 1 - floorW - flagsW - 3);
  const typeCol = (text: string) => `${cell(text, typeW)} `;
  const columns = `  ${cell(s.colUnit, nameW)} ${typeCol(s.colType)}${cell(s.colFloor, floorW)} ${cell(s.colBilled, totalsW)} ${cell(s.colFlags, flagsW, 'right')}`;
  const flagsOf = (pred: (f: Flag) => boolean) => b.bill.flags.filter(pred);
  const rows: Row[] = [];

  const propertyFlags = flagsOf((f) => f.usage_unit_id === null && f.measuring_point_id === null);
  if (propertyFlags.length > 0) {
    rows.push(heading('h:pf', s.propertyFindings));
    for (const [i, f] of propertyFlags.entries()) rows.push(flagRow(`pf:${i}`, f, b.property.name, '', titleOf(f)));
  }

  rows.push(heading('h:units', s.unitsHeading({ n: b.units.length })));
  if (b.units.length === 0) rows.push(row('units:none', [{ text: s.noUnits, dim: true }], { selectable: false }));
  // The files' order (src/billing/order.ts), whatever order the service listed them in.
  for (const unit of b.units.map((u) => u.unit).sort(compareUnits)) {
    const totals = shortTotalsText(
      b.bill.billing.filter((r) => r.usage_unit_id === unit.id),
      units,
    );
    const flags = flagsOf((f) => f.usage_unit_id === unit.id);
    const fc = flagCountSpan(flags);
    const floor = floorText(unit.floor, unit.position);
    rows.push(
      row(
        `u:${unit.id}`,
        [
          { text: cell(unit.name, nameW), bold: true },
          { text: ` ${typeCol(typeCode(unit.unit_type))}${cell(floor, floorW)} ` },
          { text: cell(totals || s.noBillable, totalsW), ...(totals ? {} : { dim: true }) },
          { ...fc, text: ` ${cell(fc.text, flagsW, 'right')}` },
        ],
        {
          filterText: `${unit.name} ${unit.unit_type} ${typeWord(unit.unit_type)} ${floor} ${totals}`,
          open: { kind: 'unit', propertyId: b.property.id, unitId: unit.id },
          flags,
        },
      ),
    );
  }

  rows.push(heading('h:plant', s.plantHeading({ n: b.plant.length })));
  if (b.plant.length === 0) rows.push(row('plant:none', [{ text: s.none, dim: true }], { selectable: false }));
  for (const { point, consumption } of b.plant) {
    const id = point.id ?? consumption.measuring_point_id;
    const billed = b.bill.plant.find((r) => r.measuring_point_id === id);
    const flags = flagsOf((f) => f.usage_unit_id === null && f.measuring_point_id === id);
    const fc = flagCountSpan(flags);
    const label = `${metricLabel(consumption.metric)}${point.localization ? ` · ${point.localization}` : ''}`;
    const value =
      point.is_difference_meter || consumption.is_difference_meter
        ? s.differenceMeter
        : `${qty(billed?.billable_value ?? sumSegments(consumption))} ${unitWord(consumption.unit)}`;
    const serial = point.active_device?.serial ?? consumption.segments.at(-1)?.serial ?? s.noDevice;
    // The place of a plant meter is its name: it may use what the value does not need.
    const valueText = `${value} · ${serial}`;
    const avail = nameW + typeW + 1 + floorW + 1 + 1 + totalsW;
    const labelW = Math.max(nameW + typeW + 1 + floorW + 1, Math.min([...label].length, avail - [...valueText].length - 1));
    rows.push(
      row(
        `m:${id}`,
        [{ text: cell(label, labelW), bold: true }, { text: ` ${cell(valueText, avail - labelW - 1)}` }, { ...fc, text: ` ${cell(fc.text, flagsW, 'right')}` }],
        { filterText: `${label} ${serial} plant main`, open: { kind: 'plant', propertyId: b.property.id, pointId: id }, flags },
      ),
    );
  }
  return { columns, rows };
}

function sumSegments(c: { segments: { period_consumption: { billable_value: number } }[] }): string {
  return c.segments.reduce((s, seg) => s.plus(seg.period_consumption?.billable_value ?? 0), new Decimal(0)).toString();
}

/** One selectable line per flag: `i` or Enter on it shows the accountant's explanation. */
export function flagRow(key: string, f: Flag, filterText: string, indent: string, title?: string): Row {
  const fc = flagCountSpan([f]);
  const spans: Span[] = [
    { text: indent },
    { text: `[${fc.text.slice(-1)}] `, ...(fc.color ? { color: fc.color } : {}) },
    { text: title ?? f.code },
    { text: s.explainHint, dim: true },
  ];
  return row(key, spans, { filterText, flags: [f] });
}
