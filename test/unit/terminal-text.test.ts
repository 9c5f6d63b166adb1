// Text from the server reaches the terminal with every control character made visible:
// no escape sequence, no early line end, no right-to-left override.
import { describe, expect, it } from 'vitest';
import { formatError, MeterdataError, ExitCode } from '../../src/core/errors.js';
import { terminalSafe } from '../../src/core/terminal-text.js';
import { propertyLine } from '../../src/export/progress.js';
import { fit, wordWrap } from '../../src/tui/format.js';

const hostile = 'Haus\u001b[2J\u001b]0;pwned\u0007 A\r\nfake line\u009b31m \u202etxt.exe\u2066x\u2069';
// C0, DEL, C1 and the bidi controls
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('terminalSafe', () => {
  it('escapes C0, C1 and bidi controls visibly and keeps everything else', () => {
    const safe = terminalSafe(hostile);
    expect(safe).not.toMatch(CONTROL);
    expect(safe).toBe('Haus\\u{1b}[2J\\u{1b}]0;pwned\\u{7} A\\u{d}\\u{a}fake line\\u{9b}31m \\u{202e}txt.exe\\u{2066}x\\u{2069}');
    expect(terminalSafe('Müllerstraße 5 – WE 01 ✓')).toBe('Müllerstraße 5 – WE 01 ✓');
  });

  it('is applied to every error message and hint on its way to stderr', () => {
    const e = new MeterdataError(`Access to property "${hostile}" was withdrawn.`, {
      code: 'ACCESS_WITHDRAWN',
      exitCode: ExitCode.ACCESS_WITHDRAWN,
      hint: `see ${hostile}`,
    });
    const { text } = formatError(e);
    expect(text.split('\n')).toHaveLength(2); // message and hint, no line the server added
    expect(text.replace('\n', '')).not.toMatch(CONTROL);
  });

  it('is applied to the progress lines and the browse screens', () => {
    expect(propertyLine({ index: 1, total: 1, name: hostile, units: 1, plantPoints: 0, flags: 0, fromJournal: false })).not.toMatch(CONTROL);
    expect(fit(hostile, 200)).not.toMatch(CONTROL);
    expect(wordWrap(hostile, 20).join('')).not.toMatch(CONTROL);
  });
});
