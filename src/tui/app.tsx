// The browser: a stack of screens (Properties → Property → unit or plant meter),
// keys, prompts and overlays. Its state is the pure reducer in state.ts, fed by the
// pure key mapping in keymap.ts; loads, timers, counting and export are small hooks.
// Data comes only through BrowseData; every load has a loading, empty and error
// state, so the UI never blocks or crashes on one.
import { Box, Text, useApp, useWindowSize } from 'ink';
import { useReducer } from 'react';
import type { Property } from '../api/types.js';
import type { Flag } from '../billing/types.js';
import { language } from '../i18n/index.js';
import type { BrowseData, ExportSelection, LoadProgress, PropertyBundle } from './data.js';
import { describeError } from './errors.js';
import { fit, fitCrumbs, periodText, shortPeriodText } from './format.js';
import { cursorOn, keyAction } from './keymap.js';
import type { DateRange } from './range.js';
import { filterRows, type Row, type Span } from './rows.js';
import { flagWhere, propertiesScreen, propertyScreen, type Screen } from './screens-list.js';
import { plantScreen, unitScreen } from './screens-unit.js';
import { initialState, reduce, topFrame, type BrowseState, type Place } from './state.js';
import { t } from './texts.js';
import { useExport } from './use-export.js';
import { useFlagCount } from './use-flag-count.js';
import { useKeys } from './use-keys.js';
import { useBundle, useLoad, useUviLoad, type LoadState } from './use-load.js';
import { uviScreen } from './screens-uvi.js';
import { uviScreenTexts as u } from './texts-uvi.js';
import { uviMonth, uviRange, type UviView } from './uvi.js';
import { useServiceNotes } from './use-service-notes.js';
import { Centered, ColorContext, ErrorView, explainLines, Footer, helpLines, ListView, ScrollView, StatusLegend } from './view.js';

export interface AppProps {
  data: BrowseData;
  range: DateRange;
  color?: boolean;
  /** The range came from --year or --from/--to: the monthly information (`m`) ends with its last month. */
  rangeChosen?: boolean;
  /** The command's clock, for the last completed month (the monthly information's default). */
  today?: Date;
  /** Terminal size; taken from stdout when not given. */
  width?: number;
  height?: number;
}

/** The screen for a place, once its data is there; 'missing' when the place is not in the data (after a range change). */
function screenOf(
  target: Place,
  data: BrowseData,
  list: LoadState<Property[]>,
  bundle: LoadState<PropertyBundle>,
  uvi: LoadState<UviView>,
  range: DateRange,
  width: number,
): Screen | null | 'missing' {
  const titleOf = (f: Flag) => data.flagText(f.code, language()).title;
  if (target.kind === 'properties') return list.status === 'ready' ? propertiesScreen(list.value, (id) => data.cachedFlags(id, range), width) : null;
  if (target.kind === 'uvi') return uvi.status === 'ready' ? (uviScreen(uvi.value, target.unitId, language(), width) ?? 'missing') : null;
  if (bundle.status !== 'ready') return null;
  const b = bundle.value;
  if (target.kind === 'property') return propertyScreen(b, width, titleOf);
  if (target.kind === 'unit') return unitScreen(b, target.unitId, titleOf) ?? 'missing';
  return plantScreen(b, target.pointId, titleOf) ?? 'missing';
}

/** What `e` exports here: the Property shown or selected, on a unit screen only that unit. */
function selectionOf(
  target: Place,
  property: Property | undefined,
  list: Property[],
  selected: Row | undefined,
  bundle: PropertyBundle | null,
  range: DateRange,
): ExportSelection | null {
  const prop = property ?? (target.kind === 'properties' ? list.find((p) => selected?.open?.propertyId === p.id) : undefined);
  if (!prop) return null;
  if (target.kind !== 'unit' && target.kind !== 'uvi') return { property: prop, range };
  const unitName = bundle?.units.find((u) => u.unit.id === target.unitId)?.unit.name;
  return { property: prop, range, unitId: target.unitId, ...(unitName ? { unitName } : {}) };
}

function statusLine(state: BrowseState, note: string | null, filterLine: string, rateWait: number): string {
  if (state.mode === 'filter') return t.filterPrompt({ input: state.input });
  if (state.mode === 'range') return t.rangePrompt({ input: state.input, note: state.promptError ?? t.rangePromptNote });
  if (rateWait > 0) return t.rateWait({ s: rateWait });
  // A kept filter stays named whatever else is said, so a filtered list never looks whole.
  return [note, filterLine].filter(Boolean).join(' · ');
}

/** What the body of the screen needs to know to be drawn. */
interface BodyInput {
  state: BrowseState;
  target: Place;
  property: Property | undefined;
  range: DateRange;
  screen: Screen | null | 'missing';
  rows: Row[];
  cursor: number;
  filter: string;
  overlay: Span[][] | null;
  load: LoadState<unknown>;
  /** The range a failed load asked for (none for the Properties list). */
  loadRange: DateRange | undefined;
  /** What is loading, where it is not the Property over the browse range (the monthly information's 13 months). */
  loadingWhat: string | null;
  progress: LoadProgress | null;
  width: number;
  listHeight: number;
  overlayHeight: number;
}

/** The screen between the two head lines and the footer: an overlay, an error, a loading or empty state, or the list. */
function bodyOf(b: BodyInput) {
  const { state, target, property, range, screen, rows, load, width, listHeight } = b;
  if (b.overlay) return <ScrollView lines={b.overlay} top={state.overlayTop} height={b.overlayHeight} width={width} />;
  if (load.status === 'error') return <ErrorView info={describeError(load.error, b.loadRange)} height={listHeight + 1} canGoBack={state.stack.length > 1} />;
  if (load.status !== 'ready' || screen === null) {
    const { progress } = b;
    const what = target.kind === 'properties' || !property ? t.properties : (b.loadingWhat ?? `${property.name} (${periodText(range)})`);
    const text =
      !progress || target.kind === 'properties'
        ? t.loading({ what })
        : progress.total === null
          ? t.loadingUnits({ what, done: progress.done })
          : t.loadingUnitsOf({ what, done: progress.done, total: progress.total });
    return <Centered height={listHeight + 1} lines={[[{ text, color: 'cyan' }]]} />;
  }
  if (screen === 'missing') {
    return (
      <Centered
        height={listHeight + 1}
        lines={[[{ text: t.missing({ property: property?.name ?? t.theProperty, range: periodText(b.loadRange ?? range) }) }]]}
      />
    );
  }
  if (screen.rows.length === 0) return <Centered height={listHeight + 1} lines={[[{ text: t.noProperties, bold: true }], [{ text: t.noPropertiesHint }]]} />;
  if (rows.length === 0) return <Centered height={listHeight + 1} lines={[[{ text: t.nothingMatches({ filter: b.filter }) }]]} />;
  const detail = target.kind === 'unit' || target.kind === 'plant';
  return (
    <Box flexDirection="column">
      {target.kind === 'uvi' ? (
        <Text wrap="truncate-end">{u.legend}</Text>
      ) : detail ? (
        <StatusLegend />
      ) : (
        <Text wrap="truncate-end" bold>
          {fit(screen.columns, width - 1)}
        </Text>
      )}
      <ListView rows={rows} cursor={b.cursor} width={width} height={listHeight} />
    </Box>
  );
}

/** The Property over the browse range, or on the monthly screen over its 13 months (the other waits until a screen needs it). */
function usePropertyLoads(data: BrowseData, target: Place, property: Property | undefined, state: BrowseState, today: Date | undefined) {
  const month = target.kind === 'uvi' ? uviMonth(state.range, state.rangeChosen, today ?? new Date()) : null;
  const uvi = useUviLoad(data, property, month, state.reloads);
  const bundle = useBundle(data, month ? undefined : property, state.range, state.reloads);
  return { month, uvi$: uvi.state, bundle$: bundle.state, progress: month ? uvi.progress : bundle.progress };
}

export function App(props: AppProps) {
  const size = useWindowSize();
  const width = Math.max(40, props.width ?? size.columns ?? 80);
  const height = Math.max(12, props.height ?? size.rows ?? 24);
  const { exit } = useApp();
  const { data } = props;
  const [state, dispatch] = useReducer(reduce, props.range, (r) => initialState(r, props.rangeChosen ?? false));
  const { range } = state;
  const frame = topFrame(state);
  const target = frame.target;
  const counter = useFlagCount(data, range);
  const list$ = useLoad('properties', () => data.listProperties(), `${state.reloads}:${state.listVisits}`);
  const propertyList = list$.status === 'ready' ? list$.value : [];
  const property = target.kind === 'properties' ? undefined : propertyList.find((p) => p.id === target.propertyId);
  const { month, uvi$, bundle$, progress } = usePropertyLoads(data, target, property, state, props.today);
  const notes = useServiceNotes(data, `${list$.status}|${bundle$.status}|${uvi$.status}`);
  const startExport = useExport(data, dispatch);

  // Rebuilt on every render: cheap next to drawing, and flag counts of Properties
  // opened meanwhile show up without extra bookkeeping.
  const screen = screenOf(target, data, list$, bundle$, uvi$, range, width);
  const rows = screen && screen !== 'missing' ? filterRows(screen.rows, frame.filter) : [];
  const cursor = cursorOn(rows, frame.cursor);
  const selected = rows[cursor];
  const listHeight = height - 5;
  const overlayHeight = listHeight + 1;
  const bundle = month ? (uvi$.status === 'ready' ? uvi$.value.bundle : null) : bundle$.status === 'ready' ? bundle$.value : null;
  const overlay =
    state.mode === 'help'
      ? helpLines(width)
      : state.mode === 'explain' && selected
        ? explainLines(selected.flags, data.flagText, width, (f) => (bundle ? flagWhere(bundle, f) : ''))
        : null;

  useKeys((press) => {
    const action = keyAction(press, {
      state,
      rows,
      cursor,
      listHeight,
      overlayLines: overlay?.length ?? 0,
      overlayHeight,
      counting: counter.active(),
      canCount: target.kind === 'properties' && list$.status === 'ready',
      exportable: data.exportSelection ? selectionOf(target, property, propertyList, selected, bundle, range) : 'unavailable',
    });
    if (!action) return;
    if (action.type === 'quit') return exit();
    if (action.type === 'stop-count') return void counter.stop();
    if (action.type === 'count' && list$.status === 'ready') counter.start(list$.value);
    if (action.type === 'export') startExport(action.selection);
    if (action.type === 'open' || action.type === 'back' || action.type === 'overlay') counter.dismiss();
    dispatch(action);
  });

  const crumbs = [t.properties, property?.name, screen && screen !== 'missing' ? screen.title : undefined].filter((c): c is string => Boolean(c));
  const right = t.rangeHead({ range: shortPeriodText(range) });
  // The program's name goes first when room is short, then the middle crumbs; the last stays.
  const named = t.head({ crumbs: crumbs.join(' › ') });
  const head = [...named].length <= width - right.length - 2 ? named : fitCrumbs(crumbs, width - right.length - 2);
  const filterLine = frame.filter && state.mode !== 'filter' ? t.filtered({ filter: frame.filter, n: rows.filter((r) => r.selectable).length }) : '';
  const status = statusLine(state, notes.retryText ?? state.message ?? counter.text(), filterLine, notes.rateWait);

  const load = target.kind === 'properties' || list$.status !== 'ready' ? list$ : month ? uvi$ : bundle$;
  const months = month ? uviRange(month) : null;
  const body = bodyOf({
    state,
    target,
    property,
    range,
    screen,
    rows,
    cursor,
    filter: frame.filter,
    overlay,
    load,
    loadRange: load === list$ ? undefined : (months ?? range),
    loadingWhat: months && property ? u.loading({ property: property.name, period: shortPeriodText(months) }) : null,
    progress,
    width,
    listHeight,
    overlayHeight,
  });

  return (
    <ColorContext.Provider value={props.color ?? true}>
      <Box flexDirection="column" width={width}>
        <Text wrap="truncate-end" bold>
          {fit(head, width - right.length - 2).padEnd(width - right.length - 1)}
          {right}
        </Text>
        <Text wrap="truncate-end" color={props.color === false ? undefined : notes.rateWait > 0 ? 'yellow' : undefined}>
          {fit(status, width - 1) || ' '}
        </Text>
        {body}
        <Footer width={width} kind={target.kind === 'properties' ? 'list' : target.kind === 'unit' || target.kind === 'uvi' ? target.kind : 'other'} />
      </Box>
    </ColorContext.Provider>
  );
}
