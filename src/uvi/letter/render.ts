// Places a letter model on A4 pages of an open pdfkit document: heading block, per service
// the table and the chart, the notes, and on each page a footer with "Seite n von m".
// A letter's pages are held until it is complete (for m), then flushed to the stream, so
// a combined PDF of a Property never holds more than one letter's pages.
import { COLORS, drawChart } from './chart.js';
import type { LetterModel, LetterService } from './model.js';

export const A4 = { width: 595.28, height: 841.89 };
export const MARGIN = { top: 48, bottom: 56, left: 56, right: 50 };
const WIDTH = A4.width - MARGIN.left - MARGIN.right;
const CHART_HEIGHT = 100;

function space(doc: PDFKit.PDFDocument, needed: number): void {
  if (doc.y + needed > A4.height - MARGIN.bottom) doc.addPage();
}

function heading(doc: PDFKit.PDFDocument, m: LetterModel): void {
  const x = MARGIN.left;
  doc.font('Bold').fontSize(17).fillColor(COLORS.you).text(m.title, x, MARGIN.top, { width: WIDTH });
  doc.font('Regular').fontSize(11).fillColor(COLORS.text).text(m.subtitle, { width: WIDTH });
  doc.fontSize(7.5).fillColor('#666666').text(m.law, { width: WIDTH });
  doc.moveDown(0.8);
  // Two columns of facts: the unit on the left, area, reference and period on the right.
  const half = Math.ceil(m.facts.length / 2);
  const labelW = 72;
  const top = doc.y;
  let bottom = top;
  [m.facts.slice(0, half), m.facts.slice(half)].forEach((column, c) => {
    const cx = x + c * (WIDTH / 2 + 6);
    let y = top;
    for (const [label, value] of column) {
      doc.font('Bold').fontSize(8.5).fillColor(COLORS.text).text(label, cx, y, { width: labelW });
      doc.font('Regular').text(value, cx + labelW, y, { width: WIDTH / 2 - labelW - 6 });
      y = Math.max(doc.y, y + 11);
    }
    bottom = Math.max(bottom, y);
  });
  doc.x = x;
  doc.y = bottom;
  doc.moveDown(1);
  doc.font('Regular').fontSize(9.5).text(m.salutation, x, doc.y, { width: WIDTH });
  doc.moveDown(0.4).text(m.intro, { width: WIDTH, lineGap: 1.5 });
}

/** The column of the figures, right-aligned. */
const FIGURE = 2;
const COLS = [0.19, 0.17, 0.18, 0.46];

function table(doc: PDFKit.PDFDocument, m: LetterModel, s: LetterService): void {
  const x = MARGIN.left;
  const widths = COLS.map((c) => c * WIDTH);
  const at = (i: number) => x + widths.slice(0, i).reduce((a, b) => a + b, 0);
  let y = doc.y;
  doc.font('Bold').fontSize(8).fillColor('#666666');
  m.columns.forEach((c, i) => doc.text(c, at(i) + 3, y, { width: widths[i]! - 6, align: i === FIGURE ? 'right' : 'left', lineBreak: false }));
  y += 12;
  doc
    .moveTo(x, y - 2)
    .lineTo(x + WIDTH, y - 2)
    .lineWidth(0.6)
    .strokeColor(COLORS.text)
    .stroke();
  s.rows.forEach((r, i) => {
    const cells = [r.label, r.when, r.figure, r.words];
    const font = (k: number) => doc.font(k === FIGURE || i === 0 ? 'Bold' : 'Regular').fontSize(8.5);
    const h = Math.max(15, ...cells.map((c, k) => font(k).heightOfString(c, { width: widths[k]! - 6 }) + 5));
    if (i === 0) doc.rect(x, y, WIDTH, h).fillColor('#eef3f8').fill();
    cells.forEach((c, k) => {
      font(k).fillColor(COLORS.text);
      doc.text(c, at(k) + 3, y + 3, { width: widths[k]! - 6, align: k === FIGURE ? 'right' : 'left' });
    });
    y += h;
    doc
      .moveTo(x, y)
      .lineTo(x + WIDTH, y)
      .lineWidth(0.3)
      .strokeColor(COLORS.grid)
      .stroke();
  });
  doc.x = x;
  doc.y = y + 5;
}

function legend(doc: PDFKit.PDFDocument, m: LetterModel, withAverage: boolean): void {
  const y = doc.y;
  let x = MARGIN.left + 44;
  const item = (color: string | null, label: string) => {
    if (color)
      doc
        .rect(x, y + 1, 7, 7)
        .fillColor(color)
        .fill();
    doc
      .font('Regular')
      .fontSize(7)
      .fillColor(COLORS.text)
      .text(label, x + (color ? 10 : 0), y, { lineBreak: false });
    x += (color ? 10 : 0) + doc.widthOfString(label) + 16;
  };
  item(COLORS.you, m.legend.you);
  if (withAverage) item(COLORS.average, m.legend.average);
  item(null, m.legend.estimated);
  item(null, m.legend.missing);
  doc.x = MARGIN.left;
  doc.y = y + 12;
}

/** About the height a service takes (heading, table, texts, chart, legend), to keep it on one page. */
function height(doc: PDFKit.PDFDocument, s: LetterService): number {
  const texts = [s.method, ...s.notes].reduce((a, n) => a + doc.font('Regular').fontSize(7.5).heightOfString(n, { width: WIDTH }), 0);
  return 30 + 14 + s.rows.length * 16 + 5 + texts + 20 + CHART_HEIGHT + 22;
}

function service(doc: PDFKit.PDFDocument, m: LetterModel, s: LetterService): void {
  space(doc, height(doc, s));
  doc.moveDown(0.8);
  doc.font('Bold').fontSize(12).fillColor(COLORS.you).text(s.heading, MARGIN.left, doc.y, { width: WIDTH });
  doc.moveDown(0.3);
  table(doc, m, s);
  doc.font('Regular').fontSize(7.5).fillColor('#555555').text(s.method, MARGIN.left, doc.y, { width: WIDTH });
  for (const n of s.notes) doc.font('Bold').fontSize(7.5).fillColor(COLORS.text).text(n, { width: WIDTH });
  doc.moveDown(0.5);
  doc.font('Bold').fontSize(8.5).fillColor(COLORS.text).text(s.chart.title, { width: WIDTH });
  const box = { x: MARGIN.left, y: doc.y + 4, width: WIDTH, height: CHART_HEIGHT };
  drawChart(doc, s.chart.bars, box, s.unitLabel, m.lang);
  doc.x = MARGIN.left;
  doc.y = box.y + box.height + 8;
  legend(
    doc,
    m,
    s.chart.bars.some((b) => b.average !== null),
  );
}

function notes(doc: PDFKit.PDFDocument, m: LetterModel): void {
  const text = (n: string) => doc.font('Regular').fontSize(7.5).fillColor('#444444').heightOfString(n, { width: WIDTH }) + 3;
  space(doc, 24 + m.notes.reduce((a, n) => a + text(n), 0));
  doc.moveDown(1);
  doc.font('Bold').fontSize(9).fillColor(COLORS.text).text(m.notesTitle, MARGIN.left, doc.y, { width: WIDTH });
  doc.moveDown(0.2);
  for (const n of m.notes) doc.font('Regular').fontSize(7.5).fillColor('#444444').text(n, { width: WIDTH, paragraphGap: 3 });
}

/** The text cut to `width` with "…" (a footer is one line, whatever the names' length). */
function fit(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, Math.max(1, Math.floor(cut.length * 0.9)));
  return `${cut}…`;
}

function footers(doc: PDFKit.PDFDocument, m: LetterModel, first: number): void {
  const range = doc.bufferedPageRange();
  const count = range.start + range.count - first;
  for (let i = first; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Below the bottom margin pdfkit would open a new page for the text; the footer is not flowing text.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = A4.height - 34;
    doc
      .moveTo(MARGIN.left, y - 6)
      .lineTo(A4.width - MARGIN.right, y - 6)
      .lineWidth(0.3)
      .strokeColor(COLORS.grid)
      .stroke();
    doc.font('Regular').fontSize(7).fillColor('#666666');
    doc.text(fit(doc, m.footer, WIDTH * 0.72), MARGIN.left, y, { lineBreak: false });
    doc.text(m.pageTemplate.replace('{n}', String(i - first + 1)).replace('{m}', String(count)), MARGIN.left + WIDTH * 0.75, y, {
      width: WIDTH * 0.25,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}

/** Appends one letter, starting on a new page, and flushes its pages to the document's stream. */
export function renderLetter(doc: PDFKit.PDFDocument, m: LetterModel): void {
  doc.addPage();
  const first = doc.bufferedPageRange().start + doc.bufferedPageRange().count - 1;
  heading(doc, m);
  if (m.empty) doc.moveDown(1).font('Bold').fontSize(9.5).text(m.empty, MARGIN.left, doc.y, { width: WIDTH });
  for (const s of m.services) service(doc, m, s);
  notes(doc, m);
  footers(doc, m, first);
  doc.flushPages();
}
