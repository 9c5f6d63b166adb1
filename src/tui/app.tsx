// The browser: a stack of screens (Properties → Property → unit or plant meter),
// keys, prompts and overlays. Data comes only through BrowseData; every load has
// a loading, empty and error state, so the UI never blocks or crashes on one.
import { Box, Text, useApp, useInput, useWindowSize, type Key } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { Property } from '../api/types.js';
import type { Flag } from '../billing/types.js';
import type { BrowseData, LoadProgress } from './data.js';
import { describeError } from './errors.js';
import { plural } from '../core/plural.js';
import { fit, fitCrumbs } from './format.js';
import { splitKeys, type KeyPress } from './keys.js';
import { parseRangeInput, rangeFlags, rangeKey, rangeLabel, shortRangeLabel, type DateRange } from './range.js';
import { filterRows, type Row, type Target } from './rows.js';
import { flagWhere, propertiesScreen, propertyScreen, type Screen } from './screens-list.js';
import { plantScreen, unitScreen } from './screens-unit.js';
import { useFlagCount } from './use-flag-count.js';
import { useLoad } from './use-load.js';
import { Centered, ColorContext, ErrorView, explainLines, Footer, helpLines, ListView, maxScroll, ScrollView, StatusLegend } from './view.js';

export interface AppProps {
  data: BrowseData;
  range: DateRange;
  color?: boolean;
  /** Terminal size; taken from stdout when not given. */
  width?: number;
  height?: number;
}

type Frame = { target: { kind: 'properties' } | Target; cursor: number; filter: string };
type Mode = 'normal' | 'filter' | 'range' | 'help' | 'explain';

const isBack = (key: Key) => key.escape || key.backspace || key.delete || key.leftArrow;

function nextSelectable(rows: Row[], from: number, step: number): number {
  for (let i = from; i >= 0 && i < rows.length; i += step) if (rows[i]!.selectable) return i;
  return -1;
}

export function App(props: AppProps) {
  const size = useWindowSize();
  const width = Math.max(40, props.width ?? size.columns ?? 80);
  const height = Math.max(12, props.height ?? size.rows ?? 24);
  const { exit } = useApp();
  const { data } = props;
  const [range, setRange] = useState(props.range);
  const [stack, setStack] = useState<Frame[]>([{ target: { kind: 'properties' }, cursor: 0, filter: '' }]);
  const [mode, setMode] = useState<Mode>('normal');
  const [input, setInput] = useState('');
  const [promptError, setPromptError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [nonce, setNonce] = useState(0);
  const [progress, setProgress] = useState<LoadProgress | null>(null);
  const [rateUntil, setRateUntil] = useState(0);
  const [listVisits, setListVisits] = useState(0);
  const [retryNote, setRetryNote] = useState<{ text: string; during: string } | null>(null);
  /** Which loads are under way; a retry note is about them and is shown only while they last. */
  const loadsNow = useRef('');
  const [now, setNow] = useState(() => Date.now());
  const [overlayTop, setOverlayTop] = useState(0);
  const exporting = useRef(false);
  const counter = useFlagCount(data, range);
  /** Keys not handled yet: one per render, so "j" then Enter opens the row j moved to. */
  const queue = useRef<KeyPress[]>([]);
  const [queued, setQueued] = useState(0);

  useEffect(
    () =>
      data.onEvent((e) => {
        if (e.type === 'rate-limited') setRateUntil(Date.now() + e.waitMs);
        if (e.type === 'retry') setRetryNote({ text: `Retrying after ${e.reason} (attempt ${e.attempt})…`, during: loadsNow.current });
      }),
    [data],
  );
  useEffect(() => {
    if (rateUntil <= now) return;
    const t = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(t);
  }, [rateUntil, now]);
  useEffect(() => setNow(Date.now()), [rateUntil]);

  const frame = stack[stack.length - 1]!;
  const target = frame.target;
  // Coming back to the list loads it again (from cache unless the sign-in changed).
  const props$ = useLoad('properties', () => data.listProperties(), `${nonce}:${listVisits}`);
  const propertyList = props$.status === 'ready' ? props$.value : [];
  const property: Property | undefined = target.kind === 'properties' ? undefined : propertyList.find((p) => p.id === target.propertyId);
  const bundleKey = property ? `${property.id}|${rangeKey(range)}` : null;
  const bundle$ = useLoad(
    bundleKey,
    () => {
      setProgress(null);
      return data.loadProperty(property!, range, setProgress);
    },
    nonce,
  );

  loadsNow.current = `${props$.status}|${bundle$.status}`;
  const retryText = retryNote && retryNote.during === loadsNow.current ? retryNote.text : null;

  const titleOf = (f: Flag) => data.flagText(f.code, 'en').title;
  // Rebuilt on every render: cheap next to drawing, and flag counts of Properties
  // opened meanwhile show up without extra bookkeeping.
  const screen: Screen | null | 'missing' = (() => {
    if (target.kind === 'properties') return props$.status === 'ready' ? propertiesScreen(props$.value, (id) => data.cachedFlags(id, range), width) : null;
    if (bundle$.status !== 'ready') return null;
    const b = bundle$.value;
    if (target.kind === 'property') return propertyScreen(b, width, titleOf);
    if (target.kind === 'unit') return unitScreen(b, target.unitId, titleOf) ?? 'missing';
    return plantScreen(b, target.pointId, titleOf) ?? 'missing';
  })();

  const rows = screen && screen !== 'missing' ? filterRows(screen.rows, frame.filter) : [];
  const first = nextSelectable(rows, 0, 1);
  const cursor = rows[frame.cursor]?.selectable ? frame.cursor : first === -1 ? 0 : Math.max(first, nextSelectable(rows, Math.min(frame.cursor, rows.length - 1), -1));
  const selected = rows[cursor];
  const listHeight = height - 5;

  const update = (patch: Partial<Frame>) => setStack((s) => [...s.slice(0, -1), { ...s[s.length - 1]!, ...patch }]);
  const move = (step: number, count = 1) => {
    let c = cursor;
    for (let n = 0; n < count; n++) {
      const next = nextSelectable(rows, c + step, step);
      if (next === -1) break;
      c = next;
    }
    update({ cursor: c });
  };
  const back = () => {
    setMessage(null);
    counter.dismiss();
    if (frame.filter) return update({ filter: '', cursor: 0 });
    if (stack.length === 2) setListVisits((v) => v + 1);
    if (stack.length > 1) setStack((s) => s.slice(0, -1));
  };
  const open = () => {
    if (selected?.open) {
      setStack((s) => [...s, { target: selected.open!, cursor: 0, filter: '' }]);
      setMessage(null);
      counter.dismiss();
    } else if (selected && selected.flags.length > 0) showOverlay('explain');
  };
  const runExport = () => {
    const prop = property ?? (target.kind === 'properties' ? propertyList.find((p) => selected?.open?.propertyId === p.id) : undefined);
    if (!data.exportSelection) return setMessage(`Export from here is not available in this build; run: meterdata export ${rangeFlags(range)}`);
    if (exporting.current) return setMessage('An export is already running; wait until it says where the files went.');
    if (!prop) return setMessage('Select a Property to export.');
    const unitId = target.kind === 'unit' ? target.unitId : undefined;
    const unitName = unitId && bundle$.status === 'ready' ? bundle$.value.units.find((u) => u.unit.id === unitId)?.unit.name : undefined;
    exporting.current = true;
    setMessage(unitId ? `Exporting unit ${unitName ?? unitId} of ${prop.name}…` : `Exporting ${prop.name}…`);
    data.exportSelection({ property: prop, range, ...(unitId ? { unitId, ...(unitName ? { unitName } : {}) } : {}) }).then(
      (where) => setMessage(`Exported: ${where}`),
      (e: unknown) => setMessage(`Export failed: ${describeError(e).message}`),
    ).finally(() => {
      exporting.current = false;
    });
  };
  const bundle = bundle$.status === 'ready' ? bundle$.value : null;
  const overlay =
    mode === 'help'
      ? helpLines(width)
      : mode === 'explain' && selected
        ? explainLines(selected.flags, data.flagText, width, (f) => (bundle ? flagWhere(bundle, f) : ''))
        : null;
  const overlayHeight = listHeight + 1;
  const showOverlay = (m: 'help' | 'explain') => {
    setOverlayTop(0);
    setMode(m);
  };
  const scroll = (step: number) => setOverlayTop((t) => Math.max(0, Math.min(maxScroll(overlay?.length ?? 0, overlayHeight), t + step)));

  useInput((ch, key) => {
    queue.current.push(...splitKeys(ch, key));
    setQueued((n) => n + 1);
  });
  useEffect(() => {
    const next = queue.current.shift();
    if (!next) return;
    handleKey(next.ch, next.key);
    if (queue.current.length > 0) setQueued((n) => n + 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queued]);

  function handleKey(ch: string, key: Key) {
    if (mode === 'filter' || mode === 'range') {
      if (key.escape) {
        if (mode === 'filter') update({ filter: '', cursor: 0 });
        setMode('normal');
        return;
      }
      if (key.return) {
        if (mode === 'filter') return setMode('normal');
        const r = parseRangeInput(input);
        if (!r.ok) return setPromptError(r.message);
        setRange(r.range);
        setMode('normal');
        setMessage(`Range set to ${rangeLabel(r.range)}`);
        return;
      }
      const text = key.backspace || key.delete ? input.slice(0, -1) : key.ctrl || key.meta || key.upArrow || key.downArrow ? input : input + ch;
      setInput(text);
      setPromptError(null);
      if (mode === 'filter') update({ filter: text, cursor: 0 });
      return;
    }
    if (ch === 'q') return exit();
    if (mode === 'help' || mode === 'explain') {
      if (key.escape || key.return || ch === '?' || ch === 'i' || key.backspace) setMode('normal');
      else if (ch === 'j' || key.downArrow) scroll(1);
      else if (ch === 'k' || key.upArrow) scroll(-1);
      else if (key.pageDown || ch === ' ') scroll(overlayHeight - 2);
      else if (key.pageUp) scroll(-(overlayHeight - 2));
      return;
    }
    if (ch === 'k') return move(-1);
    if (ch === 'j') return move(1);
    if (key.upArrow) return move(-1);
    if (key.downArrow) return move(1);
    if (key.pageUp) return move(-1, listHeight - 1);
    if (key.pageDown) return move(1, listHeight - 1);
    if (key.return || key.rightArrow) return open();
    if (key.escape && counter.stop()) return;
    if (isBack(key)) return back();
    if (ch === '?') return showOverlay('help');
    if (ch === 'c') {
      if (target.kind !== 'properties' || props$.status !== 'ready') return setMessage('c counts the flags of every Property; press it on the Properties list.');
      setMessage(null);
      return counter.start(props$.value);
    }
    if (ch === '/') {
      setMessage(null);
      setInput(frame.filter);
      return setMode('filter');
    }
    if (ch === 'y') {
      setMessage(null);
      setInput('');
      setPromptError(null);
      return setMode('range');
    }
    if (ch === 'i') return selected && selected.flags.length > 0 ? showOverlay('explain') : setMessage('The selected line has no flags to explain.');
    if (ch === 'e') return runExport();
    if (ch === 'r') {
      setMessage(null);
      return setNonce((n) => n + 1);
    }
  }

  const crumbs = ['Properties', property?.name, screen && screen !== 'missing' ? screen.title : undefined].filter((c): c is string => Boolean(c));
  const right = `range ${shortRangeLabel(range)}`;
  // The program's name goes first when room is short, then the middle crumbs; the last stays.
  const named = `meterdata browse · ${crumbs.join(' › ')}`;
  const head = [...named].length <= width - right.length - 2 ? named : fitCrumbs(crumbs, width - right.length - 2);
  const rateWait = Math.ceil((rateUntil - now) / 1000);
  const status =
    mode === 'filter'
      ? `Filter: ${input}█  (Enter keep · Esc clear)`
      : mode === 'range'
        ? `Year or from..to: ${input}█  ${promptError ?? '(e.g. 2024 or 2025-01-01..2025-06-30; Enter apply · Esc cancel)'}`
        : rateWait > 0
          ? `Rate limited by the service: waiting ${rateWait} s before the next request…`
          : (retryText ?? message ?? counter.text() ?? (frame.filter ? `Filtered by "${frame.filter}": ${plural(rows.filter((r) => r.selectable).length, 'match')} (Esc clears)` : ''));

  const load = target.kind === 'properties' ? props$ : props$.status !== 'ready' ? props$ : bundle$;
  let body;
  if (overlay) body = <ScrollView lines={overlay} top={overlayTop} height={overlayHeight} width={width} />;
  else if (load.status === 'error') body = <ErrorView info={describeError(load.error)} height={listHeight + 1} canGoBack={stack.length > 1} />;
  else if (load.status !== 'ready' || screen === null) {
    const what = target.kind === 'properties' || !property ? 'Properties' : `${property.name} (${rangeLabel(range)})`;
    const p = progress && target.kind !== 'properties' ? `: ${progress.done}${progress.total === null ? '' : ` of ${progress.total}`} units` : '';
    body = <Centered height={listHeight + 1} lines={[[{ text: `Loading ${what}${p}…`, color: 'cyan' }]]} />;
  } else if (screen === 'missing') {
    body = <Centered height={listHeight + 1} lines={[[{ text: `This is not part of ${property?.name ?? 'the Property'} for ${rangeLabel(range)}. Press Esc to go back.` }]]} />;
  } else if (screen.rows.length === 0) {
    body = <Centered height={listHeight + 1} lines={[[{ text: 'No Properties are shared with this connection.', bold: true }], [{ text: 'The landlord chooses the Properties when consenting; run meterdata login to connect again.' }]]} />;
  } else if (rows.length === 0) {
    body = <Centered height={listHeight + 1} lines={[[{ text: `Nothing matches "${frame.filter}". Press Esc to clear the filter.` }]]} />;
  } else {
    const detail = target.kind === 'unit' || target.kind === 'plant';
    body = (
      <Box flexDirection="column">
        {detail ? <StatusLegend /> : <Text wrap="truncate-end" bold>{fit(screen.columns, width - 1)}</Text>}
        <ListView rows={rows} cursor={cursor} width={width} height={listHeight} />
      </Box>
    );
  }

  return (
    <ColorContext.Provider value={props.color ?? true}>
      <Box flexDirection="column" width={width}>
        <Text wrap="truncate-end" bold>
          {fit(head, width - right.length - 2).padEnd(width - right.length - 1)}
          {right}
        </Text>
        <Text wrap="truncate-end" color={props.color === false ? undefined : rateWait > 0 ? 'yellow' : undefined}>
          {fit(status, width - 1) || ' '}
        </Text>
        {body}
        <Footer width={width} />
      </Box>
    </ColorContext.Provider>
  );
}
