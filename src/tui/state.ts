// The browser's state as one pure reducer: where the user is (a stack of screens with
// a cursor and a filter each), which prompt or overlay is open, the status message,
// the range. Actions come from the key mapping (keymap.ts) and from the effect hooks
// (an export that ended); nothing here touches the network, timers or the terminal.
import type { ExportSelection } from './data.js';
import { periodText } from './format.js';
import type { DateRange } from './range.js';
import type { Target } from './rows.js';
import { t } from './texts.js';

export type Place = { kind: 'properties' } | Target;
export interface Frame {
  target: Place;
  cursor: number;
  filter: string;
}
export type Mode = 'normal' | 'filter' | 'range' | 'help' | 'explain';

export interface BrowseState {
  range: DateRange;
  /** The clerk named the range (--year, --from/--to or `y`): the monthly information ends with its last month. */
  rangeChosen: boolean;
  stack: Frame[];
  mode: Mode;
  /** What is typed at the `/` or `y` prompt. */
  input: string;
  /** Why the `y` prompt refused its input. */
  promptError: string | null;
  message: string | null;
  /** `r`: every load runs again. */
  reloads: number;
  /** Coming back to the Properties list loads it again (from cache unless the sign-in changed). */
  listVisits: number;
  /** First line shown of the help or explanation overlay. */
  overlayTop: number;
  /** An export from `e` is under way: a second `e` waits for it. */
  exporting: boolean;
}

export type Action =
  | { type: 'move'; cursor: number }
  | { type: 'open'; target: Target }
  | { type: 'back' }
  | { type: 'overlay'; mode: 'help' | 'explain' }
  | { type: 'close-overlay' }
  | { type: 'scroll'; by: number; max: number }
  | { type: 'prompt'; mode: 'filter' | 'range' }
  | { type: 'type'; text: string }
  | { type: 'cancel-prompt' }
  | { type: 'keep-filter' }
  | { type: 'set-range'; range: DateRange }
  | { type: 'refuse-range'; reason: string }
  | { type: 'say'; message: string }
  | { type: 'reload' }
  | { type: 'count' }
  | { type: 'stop-count' }
  | { type: 'export'; selection: ExportSelection }
  | { type: 'export-note'; message: string }
  | { type: 'export-ended'; message: string }
  | { type: 'quit' };

export function initialState(range: DateRange, rangeChosen = false): BrowseState {
  return {
    range,
    rangeChosen,
    stack: [{ target: { kind: 'properties' }, cursor: 0, filter: '' }],
    mode: 'normal',
    input: '',
    promptError: null,
    message: null,
    reloads: 0,
    listVisits: 0,
    overlayTop: 0,
    exporting: false,
  };
}

export const topFrame = (s: BrowseState): Frame => s.stack[s.stack.length - 1]!;

function withFrame(s: BrowseState, patch: Partial<Frame>): BrowseState {
  return { ...s, stack: [...s.stack.slice(0, -1), { ...topFrame(s), ...patch }] };
}

/** "Exporting unit WE 03 of Musterstraße 1-5…" */
export function exportingText(sel: ExportSelection): string {
  return sel.unitId ? t.exportingUnit({ unit: sel.unitName ?? sel.unitId, property: sel.property.name }) : t.exportingProperty({ property: sel.property.name });
}

export function reduce(s: BrowseState, a: Action): BrowseState {
  switch (a.type) {
    case 'move':
      return withFrame(s, { cursor: a.cursor });
    case 'open':
      return { ...s, message: null, stack: [...s.stack, { target: a.target, cursor: 0, filter: '' }] };
    case 'back': {
      const cleared = { ...s, message: null };
      if (topFrame(s).filter) return withFrame(cleared, { filter: '', cursor: 0 });
      if (s.stack.length === 1) return cleared;
      return { ...cleared, stack: s.stack.slice(0, -1), listVisits: s.stack.length === 2 ? s.listVisits + 1 : s.listVisits };
    }
    case 'overlay':
      // A message about the screen below would stand above the overlay as if it were about it.
      return { ...s, mode: a.mode, overlayTop: 0, message: null };
    case 'close-overlay':
      return { ...s, mode: 'normal' };
    case 'scroll':
      return { ...s, overlayTop: Math.max(0, Math.min(a.max, s.overlayTop + a.by)) };
    case 'prompt':
      return { ...s, mode: a.mode, message: null, input: a.mode === 'filter' ? topFrame(s).filter : '', promptError: null };
    case 'type': {
      const typed = { ...s, input: a.text, promptError: null };
      return s.mode === 'filter' ? withFrame(typed, { filter: a.text, cursor: 0 }) : typed;
    }
    case 'cancel-prompt':
      return s.mode === 'filter' ? withFrame({ ...s, mode: 'normal' }, { filter: '', cursor: 0 }) : { ...s, mode: 'normal' };
    case 'keep-filter':
      return { ...s, mode: 'normal' };
    case 'set-range':
      return { ...s, range: a.range, rangeChosen: true, mode: 'normal', message: t.rangeSet({ range: periodText(a.range) }) };
    case 'refuse-range':
      return { ...s, promptError: a.reason };
    case 'say':
      return { ...s, message: a.message };
    case 'reload':
      return { ...s, message: null, reloads: s.reloads + 1 };
    case 'count':
      return { ...s, message: null };
    case 'export':
      return { ...s, exporting: true, message: exportingText(a.selection) };
    case 'export-note':
      return s.exporting ? { ...s, message: a.message } : s; // a late one must not replace where the files went
    case 'export-ended':
      return { ...s, exporting: false, message: a.message };
    case 'stop-count':
    case 'quit':
      return s;
  }
}
