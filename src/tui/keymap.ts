// Keys to actions, as a pure function of what the screen shows: no state is changed
// here, so every key's meaning is testable without rendering (the reducer in state.ts
// applies the action; app.tsx runs the effects of quit, count and export).
import type { Key } from 'ink';
import type { ExportSelection } from './data.js';
import type { KeyPress } from './keys.js';
import { parseRangeInput, rangeFlags } from './range.js';
import type { Row } from './rows.js';
import { topFrame, type Action, type BrowseState } from './state.js';
import { t } from './texts.js';
import { uviScreenTexts } from './texts-uvi.js';

export interface KeyView {
  state: BrowseState;
  /** The rows shown (after the filter). */
  rows: Row[];
  /** The cursor as drawn (see cursorOn). */
  cursor: number;
  listHeight: number;
  /** Lines of the open overlay and the rows it is drawn in. */
  overlayLines: number;
  overlayHeight: number;
  /** A count of flags (`c`) runs in the background. */
  counting: boolean;
  /** On the Properties list, with the list loaded: `c` may count. */
  canCount: boolean;
  /** What `e` exports here: null when no Property is selected, 'unavailable' when this build has no export. */
  exportable: ExportSelection | null | 'unavailable';
}

export function nextSelectable(rows: Row[], from: number, step: number): number {
  for (let i = from; i >= 0 && i < rows.length; i += step) if (rows[i]!.selectable) return i;
  return -1;
}

/** The frame's cursor on a selectable row: a filter or a reload may have moved the rows under it. */
export function cursorOn(rows: Row[], cursor: number): number {
  if (rows[cursor]?.selectable) return cursor;
  const first = nextSelectable(rows, 0, 1);
  return first === -1 ? 0 : Math.max(first, nextSelectable(rows, Math.min(cursor, rows.length - 1), -1));
}

const isBack = (key: Key) => key.escape || key.backspace || key.delete || key.leftArrow;

function move(v: KeyView, step: number, count = 1): Action {
  let c = v.cursor;
  for (let n = 0; n < count; n++) {
    const next = nextSelectable(v.rows, c + step, step);
    if (next === -1) break;
    c = next;
  }
  return { type: 'move', cursor: c };
}

function promptKey(ch: string, key: Key, v: KeyView): Action {
  const { mode, input } = v.state;
  if (key.escape) return { type: 'cancel-prompt' };
  if (key.return) {
    if (mode === 'filter') return { type: 'keep-filter' };
    const r = parseRangeInput(input);
    return r.ok ? { type: 'set-range', range: r.range } : { type: 'refuse-range', reason: r.message };
  }
  const text = key.backspace || key.delete ? input.slice(0, -1) : key.ctrl || key.meta || key.upArrow || key.downArrow ? input : input + ch;
  return { type: 'type', text };
}

function overlayKey(ch: string, key: Key, v: KeyView): Action | null {
  const max = v.overlayLines <= v.overlayHeight ? 0 : v.overlayLines - (v.overlayHeight - 1);
  const scroll = (by: number): Action => ({ type: 'scroll', by, max });
  if (key.escape || key.return || ch === '?' || ch === 'i' || key.backspace) return { type: 'close-overlay' };
  if (ch === 'j' || key.downArrow) return scroll(1);
  if (ch === 'k' || key.upArrow) return scroll(-1);
  if (key.pageDown || ch === ' ') return scroll(v.overlayHeight - 2);
  if (key.pageUp) return scroll(-(v.overlayHeight - 2));
  return null;
}

function exportKey(v: KeyView): Action {
  if (v.exportable === 'unavailable') return { type: 'say', message: t.exportUnavailable({ flags: rangeFlags(v.state.range) }) };
  if (v.state.exporting) return { type: 'say', message: t.exportRunning };
  if (!v.exportable) return { type: 'say', message: t.exportWhich };
  return { type: 'export', selection: v.exportable };
}

/** `m` on a unit's screen: its monthly consumption information. */
function monthlyKey(v: KeyView): Action {
  const here = topFrame(v.state).target;
  if (here.kind !== 'unit') return { type: 'say', message: uviScreenTexts.onlyOnUnit };
  return { type: 'open', target: { kind: 'uvi', propertyId: here.propertyId, unitId: here.unitId } };
}

export function keyAction({ ch, key }: KeyPress, v: KeyView): Action | null {
  const { mode } = v.state;
  if (mode === 'filter' || mode === 'range') return promptKey(ch, key, v);
  if (ch === 'q') return { type: 'quit' };
  if (mode === 'help' || mode === 'explain') return overlayKey(ch, key, v);
  const selected = v.rows[v.cursor];
  const explains = selected !== undefined && selected.flags.length > 0;
  if (ch === 'k' || key.upArrow) return move(v, -1);
  if (ch === 'j' || key.downArrow) return move(v, 1);
  if (key.pageUp) return move(v, -1, v.listHeight - 1);
  if (key.pageDown) return move(v, 1, v.listHeight - 1);
  if (key.return || key.rightArrow) return selected?.open ? { type: 'open', target: selected.open } : explains ? { type: 'overlay', mode: 'explain' } : null;
  if (key.escape && v.counting) return { type: 'stop-count' };
  if (isBack(key)) return { type: 'back' };
  if (ch === '?') return { type: 'overlay', mode: 'help' };
  if (ch === 'c') return v.canCount ? { type: 'count' } : { type: 'say', message: t.countWhere };
  if (ch === '/') return { type: 'prompt', mode: 'filter' };
  if (ch === 'y') return { type: 'prompt', mode: 'range' };
  if (ch === 'i') return explains ? { type: 'overlay', mode: 'explain' } : { type: 'say', message: t.noFlags };
  if (ch === 'e') return exportKey(v);
  if (ch === 'r') return { type: 'reload' };
  if (ch === 'm') return monthlyKey(v);
  return null;
}
