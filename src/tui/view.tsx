// Drawing only: styled lines, the scrolling list, overlays and the footer. Colour
// is dropped entirely when NO_COLOR is set; every meaning also has a letter or word.
import { Box, Text } from 'ink';
import { createContext, useContext, type ReactNode } from 'react';
import { factPairs } from '../billing/findings.js';
import type { Flag } from '../billing/types.js';
import { terminalSafe } from '../core/terminal-text.js';
import { language } from '../i18n/index.js';
import type { FlagTextFn } from './data.js';
import type { ErrorInfo } from './errors.js';
import { fit, wordWrap } from './format.js';
import { SEVERITY_MARK, severityOf, type Row, type Span } from './rows.js';
import { t } from './texts.js';
import { h } from './texts-screens.js';
import { uviScreenTexts as u } from './texts-uvi.js';
import { LEGEND_STATUSES, metricCodes, NO_READING, STATUS_MARKS, statusMark, typeCodes, UNKNOWN_MARK } from './words.js';

export const ColorContext = createContext(true);

export function SpanText({ span, inverse }: { span: Span; inverse?: boolean }) {
  const color = useContext(ColorContext);
  return (
    <Text color={color ? span.color : undefined} bold={span.bold} dimColor={color ? span.dim : false} inverse={inverse}>
      {terminalSafe(span.text)}
    </Text>
  );
}

export function Line({ spans, width, selected }: { spans: Span[]; width: number; selected?: boolean }) {
  // Cut by hand so a long line never wraps and pushes the footer off an 80x24 screen.
  let left = width - 2;
  const cut: Span[] = [];
  for (const s of spans) {
    if (left <= 0) break;
    const text = fit(s.text, left);
    left -= [...text].length;
    cut.push({ ...s, text });
  }
  return (
    <Text wrap="truncate-end">
      <Text bold={selected}>{selected ? '> ' : '  '}</Text>
      {cut.map((s, i) => (
        <SpanText key={i} span={s} inverse={selected && i === 0} />
      ))}
    </Text>
  );
}

/** Window of `height` rows around the cursor, so long lists scroll within the screen. */
export function windowStart(cursor: number, total: number, height: number): number {
  if (total <= height) return 0;
  return Math.max(0, Math.min(cursor - Math.floor(height / 2), total - height));
}

/** A list taller than its rows keeps its last row for a line saying how many more lie below (or, at the end, above). */
export function ListView({ rows, cursor, width, height }: { rows: Row[]; cursor: number; width: number; height: number }) {
  const fits = rows.length <= height;
  const bodyH = fits ? height : height - 1;
  const start = windowStart(cursor, rows.length, bodyH);
  const visible = rows.slice(start, start + bodyH);
  const below = rows.length - start - bodyH;
  // A service that sends a point or a device twice gives two rows one key: React would warn
  // over the screen and may drop one of them, so a repeated key is made unique by its count.
  const seen = new Map<string, number>();
  const keyOf = (key: string) => {
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n === 0 ? key : `${key}#${n}`;
  };
  return (
    <Box flexDirection="column" height={height}>
      {visible.map((r, i) => (
        <Line key={keyOf(r.key)} spans={r.spans} width={width} selected={start + i === cursor && r.selectable} />
      ))}
      {fits ? null : (
        <Text wrap="truncate-end" dimColor>
          {fit(`  ${below > 0 ? t.listBelow({ n: below }) : t.listAbove({ n: start })}`, width - 1)}
        </Text>
      )}
    </Box>
  );
}

export function Panel({ height, children }: { height: number; children: ReactNode }) {
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {children}
    </Box>
  );
}

export function Centered({ height, lines }: { height: number; lines: Span[][] }) {
  return (
    <Panel height={height}>
      <Text> </Text>
      {lines.map((l, i) => (
        <Box key={i} paddingLeft={2} paddingRight={1}>
          <Text wrap="wrap">
            {l.map((s, j) => (
              <SpanText key={j} span={s} />
            ))}
          </Text>
        </Box>
      ))}
    </Panel>
  );
}

export function ErrorView({ info, height, canGoBack }: { info: ErrorInfo; height: number; canGoBack: boolean }) {
  const lines: Span[][] = [[{ text: info.title, color: 'red', bold: true }], [{ text: info.message }]];
  if (info.hint) lines.push([{ text: info.hint, bold: true }]);
  const keys = [info.retryable ? t.keyRetry : null, canGoBack ? t.keyBack : null, t.keyQuit].filter(Boolean);
  lines.push([{ text: t.errorKeys({ keys: keys.join(', ') }), dim: true }]);
  return <Centered height={height} lines={lines} />;
}

/** Where a flag arises, in words (unit, point, device serial), for the list under its explanation. */
export type WhereFn = (f: Flag) => string;

/** The explanation of each flag code once, with every place it arises listed under it. */
export function explainLines(flags: Flag[], flagText: FlagTextFn, width: number, where: WhereFn): Span[][] {
  const lang = language();
  const lines: Span[][] = [[{ text: h.explainTitle, bold: true }]];
  // One explanation per code and wording: a heat meter's expired calibration names the HeizkostenV, a cold-water meter's does not.
  const textOf = (f: Flag) => flagText(f.code, lang, f.facts?.point_metric);
  const keyOf = (f: Flag) => JSON.stringify([f.code, textOf(f).explanation]);
  const groups = [...new Set(flags.map(keyOf))];
  for (const group of groups) {
    const same = flags.filter((f) => keyOf(f) === group);
    const text = textOf(same[0]!);
    const sev = SEVERITY_MARK[severityOf(same[0]!)];
    lines.push([{ text: ' ' }]);
    // A title too long for the line (German ones often are) wraps under itself instead of being cut.
    const head = `[${sev.mark}] ${sev.label}: `;
    const fits = [...head].length + [...text.title].length <= width - 2;
    for (const [i, l] of (fits ? [text.title] : wordWrap(text.title, width - 2 - [...head].length)).entries()) {
      lines.push([
        { text: i === 0 ? head : ' '.repeat([...head].length), color: sev.color, bold: true },
        { text: l, bold: true },
      ]);
    }
    for (const l of wordWrap(text.explanation, width - 4)) lines.push([{ text: l }]);
    lines.push([{ text: same.length === 1 ? h.where : h.whereN({ n: same.length }), dim: true }]);
    for (const f of same) {
      const place = where(f);
      // A fact the place already names (the serial) is not repeated. English keeps the
      // facts' own names, as it always showed them; German names them as review.csv does.
      const facts = (lang === 'de' ? factPairs(f, lang) : Object.entries(f.facts ?? {}).filter(([k]) => k !== 'point_metric'))
        .filter(([, v]) => !place.includes(v))
        .map(([k, v]) => `${k}: ${v}`);
      const text = [place, ...facts].filter(Boolean).join(' · ') || h.wholeProperty;
      for (const [i, l] of wordWrap(text, width - 8).entries()) lines.push([{ text: `${i === 0 ? '  • ' : '    '}${l}`, dim: true }]);
    }
  }
  return lines;
}

/** Lines taller than the screen scroll with j/k; the last line says there is more. */
export function ScrollView({ lines, top, height, width }: { lines: Span[][]; top: number; height: number; width: number }) {
  const fits = lines.length <= height;
  const bodyH = fits ? height : height - 1;
  const start = Math.max(0, Math.min(top, lines.length - bodyH));
  const visible = lines.slice(start, start + bodyH);
  const below = lines.length - start - bodyH;
  const marker = below > 0 ? h.more({ n: below }) : h.end;
  return (
    <Box flexDirection="column" height={height}>
      {visible.map((l, i) => (
        <Box key={i} flexShrink={0}>
          <Line spans={l} width={width} />
        </Box>
      ))}
      {fits ? null : (
        <Text wrap="truncate-end" dimColor>
          {fit(`  ${marker}`, width - 1)}
        </Text>
      )}
    </Box>
  );
}

function keys(): [string, string][] {
  return [
    ['↑↓ j k', h.move],
    ['Enter', h.open],
    ['Esc ⌫', h.back],
    ['/', h.filter],
    ['y', h.range],
    ['i', h.explain],
    ['e', h.export],
    ['c', h.count],
    ['m', u.key],
    ['r', h.reload],
    ['?', h.help],
    ['q', h.quit],
  ];
}

/** Every letter the monthly chart can show, so the legend covers them all. */
export const ALL_STATUS_MARKS = [...STATUS_MARKS, NO_READING, UNKNOWN_MARK];

export function helpLines(width: number): Span[][] {
  const lines: Span[][] = [[{ text: h.keys, bold: true }]];
  const item = (head: string, what: string, headSpan: Omit<Span, 'text'> = { bold: true }) => {
    for (const [i, l] of wordWrap(what, width - 14).entries())
      lines.push(i === 0 ? [{ text: head.padEnd(8), ...headSpan }, { text: l }] : [{ text: `${' '.repeat(8)}${l}` }]);
  };
  for (const [k, what] of keys()) item(k, what);
  lines.push([{ text: h.statusLetters, bold: true }]);
  for (const m of ALL_STATUS_MARKS) item(m.letter, m.label, { color: m.color, bold: true });
  lines.push([{ text: h.flags, bold: true }]);
  for (const m of Object.values(SEVERITY_MARK)) item(m.mark, m.label, { color: m.color, bold: true });
  item('…', h.notCounted);
  lines.push([{ text: h.metrics, bold: true }]);
  for (const [, code, label] of metricCodes()) item(code, label);
  lines.push([{ text: h.unitTypes, bold: true }]);
  for (const [, code, word] of typeCodes()) item(code, word);
  lines.push([{ text: h.close, dim: true }]);
  return lines;
}

/** The keys that act where the user is: `c` on the Properties list (no `i` there), `m` on a unit's screen, no `i` on its monthly information. */
export function Footer({ width, kind = 'other' }: { width: number; kind?: 'list' | 'unit' | 'uvi' | 'other' }) {
  const footers: Record<typeof kind, [string, string]> = {
    list: [t.footerListWide, t.footerList],
    unit: [u.unitFooterWide, u.unitFooter],
    uvi: [u.uviFooterWide, u.uviFooter],
    other: [h.footerWide, h.footer],
  };
  const [wide, narrow] = footers[kind];
  const text = [...wide].length <= width - 1 ? wide : narrow;
  return (
    <Text wrap="truncate-end" dimColor>
      {fit(text, width - 1)}
    </Text>
  );
}

export function StatusLegend() {
  const spans: Span[] = [{ text: h.legend }];
  for (const s of LEGEND_STATUSES) {
    const m = statusMark(s);
    spans.push({ text: m.letter, color: m.color, bold: true }, { text: ` ${m.label}  ` });
  }
  return (
    <Text wrap="truncate-end">
      {spans.map((s, i) => (
        <SpanText key={i} span={s} />
      ))}
    </Text>
  );
}
