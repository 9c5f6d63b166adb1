// Hints name docs ("see docs/export.md"): each one must be in the npm package, or an
// installed meterdata points to a file its user does not have.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** npm's `files` for the patterns the project uses: "dir/*.ext" and exact paths, "!" excluding. */
function shipped(file: string, patterns: string[]): boolean {
  const match = (p: string) =>
    new RegExp(
      `^${p
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*\//g, '(?:.*/)?')
        .replace(/\*/g, '[^/]*')}$`,
    ).test(file);
  let inside = false;
  for (const p of patterns) {
    if (p.startsWith('!')) {
      if (match(p.slice(1))) inside = false;
    } else if (match(p)) inside = true;
  }
  return inside;
}

describe('docs named in messages ship in the package', () => {
  const files = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;

  it('reads the files list as npm does for the patterns used', () => {
    expect(shipped('docs/export.md', files)).toBe(true);
    expect(shipped('docs/faults.md', files)).toBe(false);
    expect(shipped('src/cli.ts', files)).toBe(false);
    expect(shipped('dist/cli.js', files)).toBe(true);
  });

  it('every docs/….md named in src or bin exists and is in package.json files', () => {
    const sources = [...walk(path.join(ROOT, 'src')).filter((f) => /\.tsx?$/.test(f)), path.join(ROOT, 'bin/meterdata.js')];
    const named = new Map<string, string>();
    for (const f of sources) {
      for (const m of readFileSync(f, 'utf8').matchAll(/docs\/[A-Za-z0-9_-]+\.md/g)) named.set(m[0], path.relative(ROOT, f));
    }
    expect(named.size).toBeGreaterThan(0);
    for (const [doc, where] of named) {
      expect(existsSync(path.join(ROOT, doc)), `${doc} (named in ${where}) does not exist`).toBe(true);
      expect(shipped(doc, files), `${doc} (named in ${where}) is not in the package`).toBe(true);
    }
  });
});
