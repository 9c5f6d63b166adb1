// A command's flags declared once: how commander reads each one (built when the program is
// built, so its help is in the run's language), the type its value has after parsing
// (inferred by the handler from the same declaration) and its fixed choices (for shell
// completion). Commander's Option is imported as a type only: the declarations load nothing.
import type { Option } from 'commander';

type OptionClass = typeof Option;

/** One declared flag; `T` is its value as the handler receives it. */
export interface Flag<T> {
  /** `--out`, as the user types it. */
  readonly long: string;
  readonly takesValue: boolean;
  /** Its value names a file or folder (`<file>`, `<dir>`): completion offers file names. */
  readonly files: boolean;
  readonly hidden: boolean;
  /** The values completion offers (commander's choices, or fixed names a parser accepts). */
  readonly choices: readonly string[];
  /** Its help text in the run's language ('' for an undocumented flag). */
  readonly help: () => string;
  /** Commander's options for it, in help order (an undocumented alias first). */
  readonly build: (OptionCtor: OptionClass) => Option[];
  /** Never set: carries the value's type for FlagValues. */
  readonly type?: T;
}

export type Flags = Record<string, Flag<unknown>>;

type ValueOf<F> = F extends Flag<infer T> ? T : never;
type Maybe<F extends Flags> = { [K in keyof F]: undefined extends ValueOf<F[K]> ? K : never }[keyof F];

/** The handler's options as commander hands them over: a flag that may be absent is optional. */
export type FlagValues<F extends Flags> = { [K in Maybe<F>]?: ValueOf<F[K]> } & { [K in Exclude<keyof F, Maybe<F>>]: ValueOf<F[K]> };

interface More {
  hidden?: boolean;
  /** Attribute names of the flags this one excludes (commander's conflicts). */
  conflicts?: string[];
  /** Values completion offers where a parser (not commander's choices) checks them. */
  complete?: readonly string[];
  /** An undocumented flag declared before this one (`--plausibility` before `--no-plausibility`). */
  alias?: string;
  /** Its help when it is not a plain text of the catalogue (one listing a registry's names). */
  help?: () => string;
}

interface Spec extends More {
  flags: string;
  help?: () => string;
  choices?: readonly string[];
  parse?: (value: string, previous: never) => unknown;
  default?: { value: unknown; text?: string };
}

function flag<T>(s: Spec): Flag<T> {
  const long = /--[\w-]+/.exec(s.flags)?.[0] ?? s.flags;
  return {
    long,
    takesValue: /[<[]/.test(s.flags),
    files: /<[^>]*\b(file|dir)\b[^>]*>/.test(s.flags),
    hidden: s.hidden === true,
    choices: s.choices ?? s.complete ?? [],
    help: () => s.help?.() ?? '',
    build(OptionCtor) {
      const o = new OptionCtor(s.flags, s.help?.());
      if (s.choices) o.choices([...s.choices]);
      if (s.parse) o.argParser(s.parse as (value: string, previous: unknown) => unknown);
      if (s.default) o.default(s.default.value, s.default.text);
      if (s.conflicts) o.conflicts(s.conflicts);
      if (s.hidden) o.hideHelp();
      return s.alias ? [new OptionCtor(s.alias).hideHelp(), o] : [o];
    },
  };
}

/**
 * The builders for flags whose help is a key of `texts` (a catalogue): the text is read when
 * the program is built, after main() has chosen the language.
 */
export type FlagBuilders<C extends object> = ReturnType<typeof flagsFrom<C>>;

export function flagsFrom<C extends object>(texts: C) {
  type Key = keyof C & string;
  const help = (key: Key | undefined) => (key === undefined ? undefined : () => String(texts[key]));
  return {
    /** `--json`: true when given. */
    bool: (flags: string, key: Key, more: More = {}) => flag<boolean | undefined>({ flags, help: help(key), ...more }),
    /** `--no-browser`: false when given, true otherwise. */
    off: (flags: `--no-${string}`, key: Key, more: More = {}) => flag<boolean>({ flags, help: help(key), ...more }),
    text: (flags: string, key: Key, more: More = {}) => flag<string | undefined>({ flags, help: help(key), ...more }),
    textOr: (flags: string, key: Key, value: string, more: More = {}) => flag<string>({ flags, help: help(key), default: { value }, ...more }),
    choice: <const V extends string>(flags: string, key: Key, choices: readonly V[], more: More = {}) =>
      flag<V | undefined>({ flags, help: help(key), choices, ...more }),
    parsed: <T>(flags: string, key: Key, parse: (value: string, previous: T) => T, more: More = {}) =>
      flag<T | undefined>({ flags, help: help(key), parse, ...more }),
    parsedOr: <T>(flags: string, key: Key | undefined, parse: (value: string, previous: T) => T, value: T, text?: string, more: More = {}) =>
      flag<T>({ flags, help: help(key), parse, default: text === undefined ? { value } : { value, text }, ...more }),
  };
}
