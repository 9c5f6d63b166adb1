// Drawing only: styled lines, the scrolling list, overlays and the footer. Colour
// is dropped entirely when NO_COLOR is set; every meaning also has a letter or word.
import { Box, Text } from 'ink';
import { createContext, useContext, type ReactNode } from 'react';
import type { Flag } from '../billing/types.js';
import type { FlagTextFn } from './data.js';
import type { ErrorInfo } from './errors.js';
import { fit, LEGEND_STATUSES, statusMark, wordWrap } from './format.js';
import { SEVERITY_MARK, severityOf, type Row, type Span } from './rows.js';

export const ColorContext = createContext(true);

export function SpanText({ span, inverse }: { span: Span; inverse?: boolean }) {
  const color = useContext(ColorContext);
  return (
    <Text color={color ? span.color : undefined} bold={span.bold} dimColor={color ? span.dim : false} inverse={inverse}>
      {span.text}
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

export function ListView({ rows, cursor, width, height }: { rows: Row[]; cursor: number; width: number; height: number }) {
  const start = windowStart(cursor, rows.length, height);
  const visible = rows.slice(start, start + height);
  return (
    <Box flexDirection="column" height={height}>
      {visible.map((r, i) => (
        <Line key={r.key} spans={r.spans} width={width} selected={start + i === cursor && r.selectable} />
      ))}
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
  const keys = [info.retryable ? 'r to try again' : null, canGoBack ? 'Esc to go back' : null, 'q to quit'].filter(Boolean);
  lines.push([{ text: `Press ${keys.join(', ')}.`, dim: true }]);
  return <Centered height={height} lines={lines} />;
}

export function ExplainView({ flags, flagText, height, width }: { flags: Flag[]; flagText: FlagTextFn; height: number; width: number }) {
  const lines: Span[][] = [[{ text: 'Why this is flagged (Esc or i to close)', bold: true }]];
  for (const f of flags) {
    const t = flagText(f.code, 'en');
    const sev = SEVERITY_MARK[severityOf(f)];
    lines.push([{ text: `[${sev.mark}] ${sev.label}: `, color: sev.color, bold: true }, { text: t.title, bold: true }]);
    for (const l of wordWrap(t.explanation, width - 4)) lines.push([{ text: l }]);
    const facts = Object.entries(f.facts ?? {});
    if (facts.length > 0) lines.push([{ text: facts.map(([k, v]) => `${k}: ${v}`).join(' · '), dim: true }]);
  }
  return <Centered height={height} lines={lines} />;
}

export const KEYS: [string, string][] = [
  ['↑↓ j k', 'move (PgUp/PgDn page)'],
  ['Enter', 'open'],
  ['Esc ⌫', 'back'],
  ['/', 'filter the list by text'],
  ['y', 'change the year or range'],
  ['i', 'explain the flags of the selected line'],
  ['e', 'export the current Property or unit'],
  ['r', 'reload after an error'],
  ['?', 'help'],
  ['q', 'quit'],
];

export function HelpView({ height }: { height: number }) {
  const lines: Span[][] = [[{ text: 'Keys', bold: true }]];
  for (const [k, what] of KEYS) lines.push([{ text: k.padEnd(8), bold: true }, { text: what }]);
  lines.push([{ text: 'Monthly status letters', bold: true }]);
  const legend: Span[] = [];
  for (const s of [...LEGEND_STATUSES, null]) {
    const m = statusMark(s);
    legend.push({ text: `${m.letter} `, color: m.color, bold: true }, { text: `${m.label}  ` });
  }
  lines.push(legend);
  lines.push([{ text: 'Flags', bold: true }]);
  lines.push(Object.values(SEVERITY_MARK).flatMap((m) => [{ text: `${m.mark} `, color: m.color, bold: true }, { text: `${m.label}  ` }]));
  lines.push([{ text: '…', bold: true }, { text: ' in the Flags column of Properties: not opened yet (flags are counted when a Property is loaded)' }]);
  lines.push([{ text: 'Press Esc or ? to close.', dim: true }]);
  return <Centered height={height} lines={lines} />;
}

export function Footer({ width }: { width: number }) {
  const text = width >= 96 ? '↑↓/jk move  Enter open  Esc back  / filter  y range  i explain  e export  ? help  q quit' : '↑↓jk move ⏎ open Esc back / filter y range i why e export ? help q quit';
  return (
    <Text wrap="truncate-end" dimColor>
      {fit(text, width - 1)}
    </Text>
  );
}

export function StatusLegend() {
  const spans: Span[] = [{ text: 'Months: ' }];
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
