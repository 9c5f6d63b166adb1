// The 13-month bar chart of a letter, in vector graphics: per month the unit's bar beside
// the average user's, a missing month an empty dashed place marked "–" (never a bar of
// 0), an estimated one hatched and marked "*". Figures on the axis in the letter's format.
import { dec } from '../../billing/decimal.js';
import type { Lang } from '../../i18n/index.js';
import { groupDigits } from './figures.js';
import type { ChartBar } from './model.js';

export const COLORS = { you: '#1f4e79', average: '#a6a6a6', grid: '#d9d9d9', text: '#333333', missing: '#8c8c8c' } as const;

/** A round step for about four grid lines: 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(max: number): number {
  if (!(max > 0) || !Number.isFinite(max)) return 1;
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * power).find((s) => s >= raw)!;
  return step;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function axis(doc: PDFKit.PDFDocument, box: Box, plotX: number, top: number, step: number, lines: number, unit: string, lang: Lang): number {
  const scale = (box.height - 30) / (step * lines);
  doc.lineWidth(0.5).fontSize(6.5).font('Regular').fillColor(COLORS.text);
  for (let i = 0; i <= lines; i++) {
    const y = top + box.height - 30 - i * step * scale;
    doc
      .moveTo(plotX, y)
      .lineTo(box.x + box.width, y)
      .strokeColor(COLORS.grid)
      .stroke();
    const label = groupDigits(dec(step).times(i).toFixed(), lang);
    doc.text(label, box.x, y - 3, { width: plotX - box.x - 4, align: 'right', lineBreak: false });
  }
  doc.text(unit, box.x, top - 11, { width: plotX - box.x - 4, align: 'right', lineBreak: false });
  return scale;
}

function hatch(doc: PDFKit.PDFDocument, x: number, y: number, w: number, h: number): void {
  doc.save().rect(x, y, w, h).clip();
  doc.lineWidth(0.6).strokeColor('#ffffff');
  for (let d = -h; d < w; d += 3)
    doc
      .moveTo(x + d, y + h)
      .lineTo(x + d + h, y)
      .stroke();
  doc.restore();
}

/** Draws the chart into `box`; returns nothing, the caller moves below box.height. */
export function drawChart(doc: PDFKit.PDFDocument, bars: readonly ChartBar[], box: Box, unit: string, lang: Lang): void {
  const values = bars.flatMap((b) => [b.value, b.average]).filter((v): v is number => v !== null && v > 0);
  const step = niceStep(Math.max(0, ...values));
  const lines = Math.max(1, Math.ceil(Math.max(0, ...values) / step));
  // The axis is as wide as its widest figure: a large one must not wrap.
  doc.font('Regular').fontSize(6.5);
  const widest = Math.max(
    doc.widthOfString(unit),
    ...Array.from({ length: lines + 1 }, (_, i) => doc.widthOfString(groupDigits(dec(step).times(i).toFixed(), lang))),
  );
  const plotX = box.x + Math.max(30, Math.ceil(widest) + 8);
  const top = box.y + 10;
  const scale = axis(doc, box, plotX, top, step, lines, unit, lang);
  const base = top + box.height - 30;
  const slot = (box.x + box.width - plotX) / bars.length;
  const hasAverage = bars.some((b) => b.average !== null);
  const w = hasAverage ? slot * 0.34 : slot * 0.55;
  bars.forEach((b, i) => {
    const x0 = plotX + i * slot + (slot - (hasAverage ? 2 * w + 1 : w)) / 2;
    if (b.value === null) {
      doc
        .save()
        .dash(1.5, { space: 1.5 })
        .lineWidth(0.6)
        .strokeColor(COLORS.missing)
        .rect(x0, base - 14, w, 14)
        .stroke()
        .undash()
        .restore();
      doc
        .font('Bold')
        .fontSize(9)
        .fillColor(COLORS.text)
        .text('–', x0 - 4, base - 26, { width: w + 8, align: 'center', lineBreak: false });
    } else {
      const h = Math.max(b.value * scale, b.value > 0 ? 0.8 : 0);
      doc
        .rect(x0, base - h, w, h)
        .fillColor(COLORS.you)
        .fill();
      if (b.estimated) {
        hatch(doc, x0, base - h, w, h);
        doc
          .font('Bold')
          .fontSize(8)
          .fillColor(COLORS.text)
          .text('*', x0 - 4, base - h - 9, { width: w + 8, align: 'center', lineBreak: false });
      }
    }
    if (b.average !== null) {
      const h = Math.max(b.average * scale, b.average > 0 ? 0.8 : 0);
      doc
        .rect(x0 + w + 1, base - h, w, h)
        .fillColor(COLORS.average)
        .fill();
    }
    const year = i === 0 || b.month.endsWith('-01') ? b.month.slice(0, 4) : '';
    doc.font('Regular').fontSize(6.5).fillColor(COLORS.text);
    doc.text(b.label, plotX + i * slot, base + 3, { width: slot, align: 'center', lineBreak: false });
    if (year) doc.text(year, plotX + i * slot, base + 11, { width: slot, align: 'center', lineBreak: false });
  });
  doc
    .moveTo(plotX, base)
    .lineTo(box.x + box.width, base)
    .lineWidth(0.7)
    .strokeColor(COLORS.text)
    .stroke();
}
