// One language per run, chosen once by the entry point (`--lang`, else the locale
// variables) and read by every catalogue. Texts live in typed catalogues: the German
// object must have exactly the English object's keys and parameter types, so a text
// missing in German is a compile error, not an English line in a German run.

export const LANGUAGES = ['en', 'de'] as const;
export type Lang = (typeof LANGUAGES)[number];

let current: Lang = 'en';

/** Set by src/cli.ts (and a worker thread from its request) before any text is rendered. */
export function setLanguage(lang: Lang): void {
  current = lang;
}

export function language(): Lang {
  return current;
}

export function isLang(v: unknown): v is Lang {
  return v === 'en' || v === 'de';
}

const GERMAN = /^de(?:[_.@-]|$)/i;

/**
 * The system's locale as Node's ICU reads it: on Windows the user's region settings; elsewhere it follows the variables below (en-US without them).
 * Read through PluralRules, which resolves the same default locale as DateTimeFormat but without loading ICU's
 * calendars and date patterns: 0.3 ms against 12 ms of CPU, paid by every start without LANG (Windows, cron).
 */
export function systemLocale(): string {
  try {
    return new Intl.PluralRules().resolvedOptions().locale;
  } catch {
    return 'en-US';
  }
}

/**
 * POSIX order: LC_ALL overrides LC_MESSAGES overrides LANG; the first one set decides.
 * A value starting with `de` (de_DE.UTF-8, de_AT, de) means German; C, POSIX and anything else English.
 * None set (Windows sets none of them): the system's locale, so a German Windows gets German.
 */
export function languageFromEnv(env: NodeJS.ProcessEnv, osLocale: () => string = systemLocale): Lang {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const v = env[name]?.trim();
    if (v) return GERMAN.test(v) ? 'de' : 'en';
  }
  return GERMAN.test(osLocale()) ? 'de' : 'en';
}

/** `--lang de`, `--lang=de` before a `--` in argv; undefined when absent (an invalid value is left to commander's choices check). */
export function languageFromArgv(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (a === '--lang') found = argv[i + 1];
    else if (a.startsWith('--lang=')) found = a.slice('--lang='.length);
  }
  return found;
}

/**
 * Parameters of a text: already formatted strings or numbers only, so that a test can
 * render every text of every catalogue with placeholder values.
 */
export type Params = Record<string, string | number>;
type Entry = string | ((p: never) => string);
type Shape = Record<string, Entry>;
/** The German side of a catalogue: the same keys, each a string or a function of the same parameters. */
export type Translation<T extends Shape> = { readonly [K in keyof T]: T[K] extends (p: infer P) => string ? (p: P) => string : string };

interface Registered {
  name: string;
  en: Shape;
  de: Shape;
}
const registry: Registered[] = [];
const sides = new WeakMap<object, Registered>();

/**
 * A catalogue: `const t = catalogue('export', { done: (p: { n: number }) => … }, { done: (p) => … })`.
 * `t.done({ n })` renders in the run's language. `name` must be unique; it names the catalogue in tests.
 */
export function catalogue<T extends Shape>(name: string, en: T, de: Translation<T>): T {
  if (registry.some((r) => r.name === name)) throw new Error(`two catalogues are named ${name}`);
  const entry: Registered = { name, en, de: de as unknown as Shape };
  registry.push(entry);
  const out = {} as T;
  for (const key of Object.keys(en)) {
    Object.defineProperty(out, key, { enumerable: true, get: () => (current === 'de' ? entry.de : entry.en)[key] });
  }
  sides.set(out, entry);
  return out;
}

/** The same catalogue in a given language, for output whose language is fixed by something else (a CSV layout). */
export function inLanguage<T extends Shape>(cat: T, lang: Lang): T {
  const entry = sides.get(cat);
  if (!entry) throw new Error('inLanguage: not a catalogue');
  return (lang === 'de' ? entry.de : entry.en) as T;
}

/** Every catalogue defined so far (tests render each text in both languages). */
export function catalogues(): readonly Registered[] {
  return registry;
}

// Numbers, dates and counts as the reader writes them.

/** German: 1234.5 → "1.234,5"; English numbers stay as the tool has always printed them ("1234.5"). */
export function num(n: number, lang: Lang = current): string {
  if (typeof n !== 'number' || !Number.isFinite(n) || lang !== 'de') return String(n);
  germanNumbers ??= new Intl.NumberFormat('de-DE', { maximumFractionDigits: 6 });
  return germanNumbers.format(n);
}
// toLocaleString made a formatter per call: 1.8 ms of a monthly letter's 25 ms of CPU (bench/README.md, "CPU per letter").
let germanNumbers: Intl.NumberFormat | undefined;

/** "2025-03-31" → "31.03.2025" in German; anything that is not a yyyy-mm-dd date is left as is. */
export function day(iso: string | number, lang: Lang = current): string {
  const s = String(iso);
  if (lang !== 'de') return s;
  const m = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(s);
  return m ? `${m[3]}.${m[2]}.${m[1]}${m[4]}` : s;
}

/** "1 Nutzeinheit", "3 Nutzeinheiten": the number in the reader's format and the word for it. */
export function count(n: number | string, one: string, many: string, lang: Lang = current): string {
  const v = Number(n);
  return `${Number.isFinite(v) ? num(v, lang) : String(n)} ${v === 1 ? one : many}`;
}
