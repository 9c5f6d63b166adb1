// The files meterdata ships beside its code (package.json for the version, the built-in
// templates, the letters' fonts). From a clone or the npm package they are read from disk next to dist/; the
// single executable has no such folder, and src/sea/main.ts hands in the copies embedded
// as assets before any command runs.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** Reads a shipped file by its path in the package, e.g. "templates/de.json". */
export type ResourceReader = (rel: string) => string;
/** The same for a binary file, e.g. "assets/fonts/DejaVuSans.ttf". */
export type BytesReader = (rel: string) => Uint8Array;

let embedded: { version: string; read: ResourceReader; bytes: BytesReader | undefined } | null = null;

/** Called once by the single executable's entry point. */
export function useEmbeddedResources(version: string, read: ResourceReader, bytes?: BytesReader): void {
  embedded = { version, read, bytes };
}

let version: string | null = null;

/** The one source of the version: --version, the files' About sheet and manifest, the User-Agent. Read once. */
export function packageVersion(): string {
  if (embedded) return embedded.version;
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}

export async function readResource(rel: string): Promise<string> {
  if (embedded) return embedded.read(rel);
  return readFile(new URL(`../../${rel}`, import.meta.url), 'utf8');
}

/** A shipped binary file (the letters' fonts): from the executable's assets, else from the package folder. */
export async function readResourceBytes(rel: string): Promise<Uint8Array> {
  if (embedded) {
    if (!embedded.bytes) throw new Error(`no embedded reader for ${rel}`);
    return embedded.bytes(rel);
  }
  return new Uint8Array(await readFile(new URL(`../../${rel}`, import.meta.url)));
}
