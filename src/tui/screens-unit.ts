// The detail screens: one unit (its points grouped by metric) or one plant-room
// meter. Each point is a block of lines: the point, its device segments, the
// billed value, a monthly bar chart with a status letter per month, and its flags.
import { Decimal } from 'decimal.js';
import { METRICS, type MeasuringPoint, type MeasuringPointConsumption } from '../api/types.js';
import { isContractBreak } from '../billing/contract.js';
import type { Flag } from '../billing/types.js';
import { changeText } from './compare.js';
import type { PropertyBundle } from './data.js';
import type { PlausibilityRow } from '../plausibility/index.js';
import { day } from '../i18n/index.js';
import { addressLine, bar, compactText, monthlySeries, plain, qty, spanText, type MonthPoint } from './format.js';
import type { DateRange } from './range.js';
import { heading, row, type Row, type Span } from './rows.js';
import { flagRow, floorText, totalsText, type Screen } from './screens-list.js';
import { s } from './texts-screens.js';
import { metricLabel, monthName, originWords, reasonWords, shortMetric, statusMark, typeWord, unitWord } from './words.js';

export interface PointBlockInput {
  consumption: MeasuringPointConsumption;
  point: MeasuringPoint | undefined;
  /** What the bill counts for this point (weighted for a unit), as a decimal string. */
  billed: string;
  flags: Flag[];
  range: DateRange;
  titleOf: (f: Flag) => string;
  keyPrefix: string;
}

const CELL = 5;

/** The chart's lines for at most 12 months per band, so 80 columns suffice. */
export function chartRows(series: MonthPoint[], unit: string, key: string, filterText: string): Row[] {
  const rows: Row[] = [];
  const max = Math.max(0, ...series.map((m) => m.use ?? 0));
  for (let start = 0; start < series.length; start += 12) {
    const band = series.slice(start, start + 12);
    const top: Span[] = [{ text: '      ' }];
    const bottom: Span[] = [{ text: '      ' }];
    const values: Span[] = [{ text: cell6(unitWord(unit)) }];
    const months: Span[] = [{ text: '      ' }];
    const letters: Span[] = [{ text: '      ' }];
    for (const m of band) {
      const mark = statusMark(m.status);
      const [t, b] = bar(m.use, max);
      top.push({ text: `${t.repeat(3)}  `, color: mark.color });
      bottom.push({ text: `${b.repeat(3)}  `, color: mark.color });
      values.push({ text: (m.use === null ? '' : compactText(m.use)).padEnd(CELL) });
      months.push({ text: monthName(m.month).padEnd(CELL), dim: true });
      letters.push({ text: ` ${mark.letter}   `, color: mark.color, bold: true });
    }
    const k = `${key}:c${start}`;
    rows.push(row(`${k}t`, top, { selectable: false, filterText }));
    rows.push(row(`${k}b`, bottom, { selectable: false, filterText }));
    rows.push(row(`${k}v`, values, { selectable: false, filterText }));
    rows.push(row(`${k}m`, months, { selectable: false, filterText }));
    rows.push(row(`${k}s`, letters, { selectable: false, filterText }));
  }
  return rows;
}

function cell6(s: string): string {
  return s.length > 5 ? `${s.slice(0, 5)} ` : s.padEnd(6);
}

export function pointBlock(i: PointBlockInput): Row[] {
  const c = i.consumption;
  const id = c.measuring_point_id;
  const where = i.point?.localization ?? '';
  const serials = c.segments.map((x) => x.serial).join(' ');
  const filterText = `${c.metric} ${metricLabel(c.metric)} ${id} ${where} ${serials}`;
  const unit = unitWord(c.unit);
  const rows: Row[] = [];
  const k = `${i.keyPrefix}${id}`;
  // Billing's rule 7 (src/billing/point.ts): not linked when either the answer or the Property's point list says so.
  const linked = c.is_system_linked !== false && i.point?.is_system_linked !== false;
  // Most important first: an 80-column terminal cuts the end (the mounting place).
  const pointSpans: Span[] = [
    { text: s.pointHead({ id: id.slice(0, 8) }), bold: true },
    { text: s.pointBilled({ value: qty(i.billed), unit }), bold: true },
    { text: c.unit_share !== undefined ? s.pointShare({ share: plain(c.unit_share) }) : '' },
    linked ? { text: s.linked } : { text: s.notLinked, color: 'yellow', bold: true },
    { text: where ? ` · ${where}` : '' },
  ];
  // `i` on the point explains all its flags, its devices' included.
  rows.push(row(`${k}`, pointSpans, { filterText, flags: i.flags }));
  if (c.is_difference_meter) {
    rows.push(row(`${k}:diff`, [{ text: s.diffLine, dim: true }], { selectable: false, filterText }));
  } else if (c.data_gap || c.segments.length === 0) {
    rows.push(row(`${k}:gap`, [{ text: s.gapLine, color: 'red' }], { selectable: false, filterText }));
  }
  const flagLine = (f: Flag, n: string, extra = '') => flagRow(`${k}:f${n}`, f, filterText, '      ', `${i.titleOf(f)}${extra}`);
  // A device the answer sends twice (DEVICE_REPEATED) is shown twice, each copy with keys of its own.
  const copies = new Map<string, number>();
  for (const seg of c.segments) {
    const pc = seg.period_consumption;
    const mark = statusMark(pc?.status);
    const copy = (copies.get(seg.device_id) ?? 0) + 1;
    copies.set(seg.device_id, copy);
    const d = `${k}:d${seg.device_id}${copy > 1 ? `#${copy}` : ''}`;
    const deviceFlags = i.flags.filter((f) => f.device_id === seg.device_id);
    rows.push(
      row(
        d,
        [
          { text: s.deviceHead({ serial: seg.serial }), bold: true },
          {
            text: s.deviceFacts({
              installed: seg.installed_at == null ? s.dateUndocumented : day(seg.installed_at),
              factor: plain(seg.factor),
              manufacturer: seg.manufacturer,
            }),
          },
        ],
        {
          filterText,
          flags: deviceFlags,
        },
      ),
    );
    const line = (key: string, spans: Span[]) => rows.push(row(`${d}:${key}`, [{ text: '      ' }, ...spans], { selectable: false, filterText }));
    if (seg.deinstalled_at || seg.replacement_reason) {
      const removed = seg.deinstalled_at != null ? s.removed({ date: day(seg.deinstalled_at) }) : s.removedUndocumented;
      line('rm', [{ text: `${removed}${seg.replacement_reason ? ` · ${reasonWords(seg.replacement_reason)}` : ''}` }]);
    }
    line('bl', [
      {
        text: s.baseline({ value: qty(seg.baseline_value), date: day(seg.baseline_date), origin: originWords(seg.baseline_origin) }),
        ...(seg.baseline_origin === 'assumed_zero' ? { color: 'yellow', bold: true } : {}),
      },
    ]);
    line('end', [
      { text: s.endLine({ end: qty(pc?.end_value), billable: qty(pc?.billable_value) }) },
      { text: `${mark.letter} ${mark.label}`, color: mark.color },
    ]);
    for (const [n, f] of deviceFlags.entries()) rows.push(flagLine(f, `${d.slice(k.length + 2)}:${n}`, ` (${seg.serial})`));
  }
  // What billing refuses (a contract break: nothing of the point billed) is not charted, so no bar adds up what the bill does not.
  if (i.flags.some((f) => isContractBreak(f.code))) rows.push(row(`${k}:nochart`, [{ text: s.notCharted, color: 'red' }], { selectable: false, filterText }));
  else if (c.segments.length > 0) rows.push(...chartRows(monthlySeries(c, i.range), c.unit, k, filterText));
  const known = new Set(c.segments.map((x) => x.device_id));
  for (const [n, f] of i.flags.filter((f) => f.device_id === null || !known.has(f.device_id)).entries()) rows.push(flagLine(f, String(n)));
  return rows;
}

function metricOrder(m: string): number {
  const i = (METRICS as readonly string[]).indexOf(m);
  return i < 0 ? METRICS.length : i;
}

function billedOf(b: PropertyBundle, unitId: string | null, pointId: string): string {
  return b.bill.segments
    .filter((x) => x.usage_unit_id === unitId && x.measuring_point_id === pointId)
    .reduce((sum, x) => sum.plus(x.billed_value || 0), new Decimal(0))
    .toString();
}

/** "Compared with 2024-01-01..2024-12-31: H 6597 kWh +43.7 %  WW 25.1 m3 +7.6 %" beside the billed line. */
function comparisonRow(key: string, b: PropertyBundle, compared: PlausibilityRow[]): Row {
  const text = compared
    .map((r) => `${shortMetric(r.metric)} ${r.comparison_value === null ? '–' : `${qty(r.comparison_value)} ${unitWord(r.unit)}`} ${changeText(r)}`.trimEnd())
    .join('  ');
  return row(key, [{ text: s.comparedWith({ range: spanText(b.review!.compare) }) }, { text: text || s.nothingToCompare, bold: true }], {
    selectable: false,
    filterText: '',
  });
}

export function unitScreen(b: PropertyBundle, unitId: string, titleOf: (f: Flag) => string): Screen | null {
  const entry = b.units.find((u) => u.unit.id === unitId);
  if (!entry) return null;
  const { unit, consumption } = entry;
  const flags = b.bill.flags.filter((f) => f.usage_unit_id === unit.id);
  const rows: Row[] = [];
  const totals = totalsText(b.bill.billing.filter((r) => r.usage_unit_id === unit.id));
  rows.push(
    row('u:info', [{ text: `${typeWord(unit.unit_type)} · ${floorText(unit.floor, unit.position)} · ${addressLine(unit.address)}` }], {
      selectable: false,
      filterText: '',
    }),
  );
  rows.push(
    row('u:billed', [{ text: s.billedLine({ range: spanText(b.effective) }) }, { text: totals || s.nothingBillable, bold: true }], {
      selectable: false,
      filterText: '',
    }),
  );
  if (b.review)
    rows.push(
      comparisonRow(
        'u:cmp',
        b,
        b.review.rows.filter((r) => r.usage_unit_id === unit.id),
      ),
    );
  for (const [n, f] of flags.filter((f) => f.measuring_point_id === null).entries()) rows.push(flagRow(`u:f${n}`, f, '', '', titleOf(f)));
  const byMetric = [...consumption.measuring_points].sort((a, z) => metricOrder(a.metric) - metricOrder(z.metric));
  let metric: string | null = null;
  // A point the answer names twice (POINT_REPEATED) is shown twice, each copy with keys of its own.
  const shown = new Map<string, number>();
  for (const c of byMetric) {
    if (c.metric !== metric) {
      metric = c.metric;
      const n = byMetric.filter((x) => x.metric === metric).length;
      rows.push(heading(`u:h:${metric}`, s.metricHeading({ metric: metricLabel(metric), unit: unitWord(c.unit), n }), `${metric} ${metricLabel(metric)}`));
    }
    const id = c.measuring_point_id;
    const copy = (shown.get(id) ?? 0) + 1;
    shown.set(id, copy);
    rows.push(
      ...pointBlock({
        consumption: c,
        point: b.points.get(id),
        billed: billedOf(b, unit.id, id),
        flags: flags.filter((f) => f.measuring_point_id === id),
        range: b.effective,
        titleOf,
        keyPrefix: copy > 1 ? `u:p#${copy}:` : 'u:p:',
      }),
    );
  }
  if (byMetric.length === 0) rows.push(row('u:none', [{ text: s.noPoints, dim: true }], { selectable: false }));
  return { title: unit.name, columns: '', rows };
}

export function plantScreen(b: PropertyBundle, pointId: string, titleOf: (f: Flag) => string): Screen | null {
  const entry = b.plant.find((p) => (p.point.id ?? p.consumption.measuring_point_id) === pointId);
  if (!entry) return null;
  const billed = b.bill.plant.find((r) => r.measuring_point_id === pointId)?.billable_value ?? billedOf(b, null, pointId);
  const c = entry.consumption;
  const rows = [
    row('m:info', [{ text: s.plantInfo({ metric: metricLabel(c.metric), unit: unitWord(c.unit) }) }], { selectable: false, filterText: '' }),
    row('m:billed', [{ text: s.plantRule, dim: true }], { selectable: false, filterText: '' }),
  ];
  if (b.review)
    rows.push(
      comparisonRow(
        'm:cmp',
        b,
        b.review.rows.filter((r) => r.usage_unit_id === null && r.measuring_point_id === pointId),
      ),
    );
  rows.push(
    ...pointBlock({
      consumption: entry.consumption,
      point: entry.point,
      billed,
      flags: b.bill.flags.filter((f) => f.usage_unit_id === null && f.measuring_point_id === pointId),
      range: b.effective,
      titleOf,
      keyPrefix: 'm:',
    }),
  );
  const title = `${metricLabel(c.metric)}${entry.point.localization ? ` · ${entry.point.localization}` : ''}`;
  return { title, columns: '', rows };
}
