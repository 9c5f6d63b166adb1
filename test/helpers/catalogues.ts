// Loads every catalogue in src (files named texts*.ts, and src/i18n) and renders its
// texts with placeholder parameters, for the catalogue test and the scans of German output.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { catalogues, type Lang } from '../../src/i18n/index.js';
import { ROOT } from './bin.js';

const SRC = join(ROOT, 'src');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]));
}

/** Source files that define catalogues; the convention the catalogue test enforces. */
export function catalogueFiles(): string[] {
  return walk(SRC).filter((f) => /\.tsx?$/.test(f) && /\bcatalogue\(/.test(readFileSync(f, 'utf8')) && !f.endsWith(join('i18n', 'index.ts')));
}

export function misplacedCatalogues(): string[] {
  return catalogueFiles()
    .map((f) => relative(SRC, f))
    .filter((f) => !/(^|\/)texts[^/]*\.tsx?$/.test(f) && !f.startsWith('i18n/'));
}

export async function loadCatalogues() {
  for (const f of catalogueFiles()) await import(pathToFileURL(f).href);
  return catalogues();
}

/** A parameter object whose every value is `value` (texts get only strings or numbers). */
export function placeholders(value: string | number): never {
  return new Proxy({}, { get: (_t, key) => (key === Symbol.toPrimitive || key === 'then' ? undefined : value), has: () => true }) as never;
}

export function render(entry: unknown, value: string | number = 2): string {
  return typeof entry === 'function' ? (entry as (p: unknown) => string)(placeholders(value)) : String(entry);
}

const MARK = '\u0001';

/**
 * English phrases a German output must not contain: the literal parts of every English text
 * (split at its parameters) of at least three words, unless the German text says the same
 * (a command line, a file name).
 */
export async function englishPhrases(): Promise<string[]> {
  const phrases = new Set<string>();
  for (const c of await loadCatalogues()) {
    for (const key of Object.keys(c.en)) {
      const de = [render(c.de[key], MARK), render(c.de[key], 1)].join('\n');
      for (const v of [MARK, 1]) {
        for (const part of render(c.en[key], v).split(MARK)) {
          for (const line of part.split('\n')) {
            const phrase = line.trim().replace(/^[\s:;,.()"'-]+|[\s:;,.()"'-]+$/g, '');
            // A column key such as usage_unit_id is a code both languages write, not an English phrase.
            const code = /^[a-z0-9]+(?:_[a-z0-9]+)+$/.test(phrase);
            if (!code && (phrase.match(/[A-Za-z]{2,}/g) ?? []).length >= 3 && !de.includes(phrase)) phrases.add(phrase);
          }
        }
      }
    }
  }
  return [...phrases];
}

/** The English phrases found in a text (meant to be German). */
export async function findEnglish(text: string): Promise<string[]> {
  const phrases = await englishPhrases();
  return phrases.filter((p) => text.includes(p));
}

export type { Lang };
