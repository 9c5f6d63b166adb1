// Text that came from the server (names, problem details) on its way to a terminal.
// A C0/C1 control character could move the cursor, clear the screen, retitle the window
// or end a line early; a bidi override (U+202E) could show "exe.txt" as "txt.exe". Each
// is shown as a visible \u{…} escape instead, so what the user reads is what was sent.

// C0 (but tab and newline are kept only where the caller allows them), DEL, C1, and the
// Unicode bidi controls: LRM/RLM, ALM, LRE..RLO, LRI..PDI.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const UNSAFE_KEEP_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

const escape = (c: string) => `\\u{${c.codePointAt(0)!.toString(16)}}`;

/** One line of text safe to print: every control character escaped. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** Whether the text holds a character terminalSafe would escape (a control or bidi character). */
export function hasControlCharacter(text: string): boolean {
  return text.search(UNSAFE) >= 0;
}

/** Like terminalSafe, but keeps line breaks (for texts the tool itself wraps over lines). */
export function terminalSafeLines(text: string): string {
  return text.replace(UNSAFE_KEEP_NEWLINE, escape);
}

// What JSON.stringify leaves as it is (it escapes only C0): DEL, C1, the bidi controls.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * JSON for stdout (--json), where a terminal may read it: the remaining controls written
 * as \uXXXX escapes, which only occur inside strings, so the parsed value is the same.
 */
export function terminalSafeJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
