// The browser's state as plain functions (issue 14): the pure key mapping turns a key
// and what the screen shows into an action; the pure reducer applies it.
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import type { Flag } from '../../src/billing/types.js';
import { cursorOn, keyAction, type KeyView } from '../../src/tui/keymap.js';
import { heading, row, type Row } from '../../src/tui/rows.js';
import { initialState, reduce, topFrame, type Action, type BrowseState } from '../../src/tui/state.js';
import { aProperty } from '../helpers/tui-fake.js';

const RANGE = { from: '2025-01-01', to: '2025-12-31' };
const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
} as Key;
const ch = (c: string) => ({ ch: c, key: NO_KEY });
const special = (k: Partial<Key>) => ({ ch: '', key: { ...NO_KEY, ...k } });
const FLAG: Flag = { code: 'CALIBRATION_EXPIRED', severity: 'not_billed', property_id: 'p', usage_unit_id: 'u', measuring_point_id: 'm', device_id: 'd' };

const rows: Row[] = [
  heading('h', 'Units (2)'),
  row('a', [{ text: 'WE 01' }], { open: { kind: 'unit', propertyId: 'p', unitId: 'a' } }),
  row('chart', [{ text: '▁▂▃' }], { selectable: false }),
  row('f', [{ text: '[!] Calibration expired' }], { flags: [FLAG] }),
  row('b', [{ text: 'WE 02' }]),
];

function view(state: BrowseState, patch: Partial<KeyView> = {}): KeyView {
  return {
    state,
    rows,
    cursor: cursorOn(rows, topFrame(state).cursor),
    listHeight: 3,
    overlayLines: 30,
    overlayHeight: 10,
    counting: false,
    canCount: true,
    exportable: 'unavailable',
    ...patch,
  };
}

/** Keys applied one after another, each mapped against the state the one before left. */
function run(keys: { ch: string; key: Key }[], state = initialState(RANGE), patch: Partial<KeyView> = {}): { state: BrowseState; actions: (Action | null)[] } {
  const actions: (Action | null)[] = [];
  for (const k of keys) {
    const a = keyAction(k, view(state, patch));
    actions.push(a);
    if (a) state = reduce(state, a);
  }
  return { state, actions };
}

describe('the key mapping', () => {
  it('moves over selectable rows only, pages by the list height, and stops at the ends', () => {
    expect(cursorOn(rows, 0)).toBe(1);
    expect(run([ch('j')]).state.stack[0]!.cursor).toBe(3);
    expect(run([ch('j'), ch('j'), ch('j')]).state.stack[0]!.cursor).toBe(4);
    expect(run([special({ pageDown: true })]).state.stack[0]!.cursor).toBe(4);
    expect(run([ch('j'), ch('j'), ch('k'), ch('k'), ch('k')]).state.stack[0]!.cursor).toBe(1);
  });

  it('opens what a row opens, explains a row with flags, and says when a row has none', () => {
    expect(run([special({ return: true })]).actions[0]).toEqual({ type: 'open', target: { kind: 'unit', propertyId: 'p', unitId: 'a' } });
    const flagged = run([ch('j'), special({ return: true })]);
    expect(flagged.actions[1]).toEqual({ type: 'overlay', mode: 'explain' });
    expect(flagged.state.mode).toBe('explain');
    expect(run([ch('j'), ch('j'), ch('i')]).state.message).toBe('The selected line has no flags to explain.');
  });

  it('types q into a prompt, quits otherwise, and stops a count with Esc before going back', () => {
    const typed = run([ch('/'), ch('q')]);
    expect(typed.state.input).toBe('q');
    expect(topFrame(typed.state).filter).toBe('q');
    expect(run([ch('q')]).actions[0]).toEqual({ type: 'quit' });
    expect(run([special({ escape: true })], initialState(RANGE), { counting: true }).actions[0]).toEqual({ type: 'stop-count' });
    expect(run([ch('c')], initialState(RANGE), { canCount: false }).state.message).toMatch(/press it on the Properties list/);
  });

  it('scrolls an overlay within its lines and closes it with Esc, Enter, ? or i', () => {
    const open = run([ch('?')]).state;
    expect(run(Array(40).fill(ch('j')), open).state.overlayTop).toBe(21); // 30 lines in 10 rows: the last 9 and the marker
    expect(run([ch('k')], open).state.overlayTop).toBe(0);
    for (const k of [special({ escape: true }), special({ return: true }), ch('?'), ch('i')]) expect(run([k], open).state.mode).toBe('normal');
  });

  it('exports what is selected, once at a time, or says why not', () => {
    const property = aProperty();
    const sel = { property, range: RANGE };
    expect(run([ch('e')]).state.message).toBe('Export from here is not available in this build; run: meterdata export --year 2025');
    expect(run([ch('e')], initialState(RANGE), { exportable: null }).state.message).toBe('Select a Property to export.');
    const started = run([ch('e')], initialState(RANGE), { exportable: sel });
    expect(started.actions[0]).toEqual({ type: 'export', selection: sel });
    expect(started.state).toMatchObject({ exporting: true, message: 'Exporting Lindenstraße 12…' });
    const again = run([ch('e')], started.state, { exportable: sel });
    expect(again.actions[0]).toEqual({ type: 'say', message: 'An export is already running; wait until it says where the files went.' });
    expect(reduce(again.state, { type: 'export-ended', message: 'Exported: 2 files in ./x' })).toMatchObject({
      exporting: false,
      message: 'Exported: 2 files in ./x',
    });
  });
});

describe('the reducer', () => {
  it('goes back by clearing a filter first, then to the screen before, counting returns to the list', () => {
    let s = reduce(initialState(RANGE), { type: 'open', target: { kind: 'property', propertyId: 'p' } });
    s = reduce(reduce(s, { type: 'prompt', mode: 'filter' }), { type: 'type', text: 'WE' });
    s = reduce(s, { type: 'keep-filter' });
    expect(topFrame(s)).toMatchObject({ filter: 'WE', cursor: 0 });
    s = reduce(s, { type: 'back' });
    expect(s.stack).toHaveLength(2);
    expect(topFrame(s).filter).toBe('');
    s = reduce(s, { type: 'back' });
    expect(s.stack).toHaveLength(1);
    expect(s.listVisits).toBe(1);
    expect(reduce(s, { type: 'back' }).stack).toHaveLength(1);
  });

  it('Esc at the filter prompt clears the filter; at the range prompt it keeps the range', () => {
    const typed = reduce(reduce(initialState(RANGE), { type: 'prompt', mode: 'filter' }), { type: 'type', text: 'x' });
    expect(topFrame(reduce(typed, { type: 'cancel-prompt' })).filter).toBe('');
    const ranged = reduce(reduce(initialState(RANGE), { type: 'prompt', mode: 'range' }), { type: 'type', text: '2024' });
    expect(reduce(ranged, { type: 'cancel-prompt' })).toMatchObject({ mode: 'normal', range: RANGE });
  });

  it("sets a range with a message, keeps every screen's filter, and refuses a bad one without leaving the prompt", () => {
    let s = reduce(reduce(initialState(RANGE), { type: 'prompt', mode: 'filter' }), { type: 'type', text: 'EG' });
    s = reduce(reduce(s, { type: 'keep-filter' }), { type: 'prompt', mode: 'range' });
    expect(s.input).toBe('');
    const refused = run([ch('2'), ch('0'), special({ return: true })], s).state;
    expect(refused).toMatchObject({ mode: 'range', promptError: expect.stringContaining('"20"') });
    const set = run([ch('2'), ch('4'), special({ return: true })], refused).state;
    expect(set).toMatchObject({ mode: 'normal', range: { from: '2024-01-01', to: '2024-12-31' }, message: 'Range set to 2024' });
    expect(topFrame(set).filter).toBe('EG');
  });

  it('clears a message when an overlay opens, and on open, back and reload', () => {
    const said = reduce(initialState(RANGE), { type: 'say', message: 'old news' });
    expect(reduce(said, { type: 'overlay', mode: 'explain' }).message).toBeNull();
    expect(reduce(said, { type: 'open', target: { kind: 'property', propertyId: 'p' } }).message).toBeNull();
    expect(reduce(said, { type: 'back' }).message).toBeNull();
    expect(reduce(said, { type: 'reload' })).toMatchObject({ message: null, reloads: 1 });
  });
});
