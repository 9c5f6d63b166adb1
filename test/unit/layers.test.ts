// The layers of docs/architecture.md: a command module is the top of its own stack. It never
// imports another command (what two commands share lives in src/export, src/auth, …),
// and nothing below the commands imports one; only src/cli.ts picks a command. The
// plausibility review is pure and used through its index; the doc names every folder of src.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bin.js';

const SRC = path.join(ROOT, 'src');
const COMMANDS = path.join(SRC, 'commands');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [path.join(dir, d.name)] : []));
}

/** Every relative module a source file imports (static, re-exported or dynamic), as a path under src without extension. */
function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => path.relative(SRC, path.resolve(path.dirname(file), s)).replace(/\.(js|tsx?)$/, ''));
}

/** A command module, as opposed to a catalogue of texts beside the commands (texts*.ts). */
const isCommand = (mod: string) => mod.startsWith('commands/') && !/^commands\/texts[^/]*$/.test(mod);

describe('the command layer', () => {
  it('finds static, dynamic and re-exported imports', () => {
    const file = path.join(COMMANDS, 'x.ts');
    const text = "import { a } from './export.js';\nconst { b } = await import('../export/single.js');\nexport { c } from './texts-export.js';\nimport './demo.js';";
    expect(importsOf(file, text)).toEqual(['commands/export', 'export/single', 'commands/texts-export', 'commands/demo']);
  });

  it('no command module imports another command module', () => {
    const bad = walk(COMMANDS)
      .filter((f) => isCommand(path.relative(SRC, f).replace(/\.tsx?$/, '')))
      .flatMap((f) => importsOf(f).filter(isCommand).map((m) => `${path.relative(SRC, f)} imports ${m}`));
    expect(bad).toEqual([]);
  });

  it('nothing below the commands imports a command module; only src/cli.ts chooses one', () => {
    const bad = walk(SRC)
      .filter((f) => !f.startsWith(COMMANDS + path.sep) && f !== path.join(SRC, 'cli.ts'))
      .flatMap((f) => importsOf(f).filter(isCommand).map((m) => `${path.relative(SRC, f)} imports ${m}`));
    expect(bad).toEqual([]);
  });
});

const PLAUSIBILITY = path.join(SRC, 'plausibility');

describe('the plausibility review (src/plausibility)', () => {
  it('does no I/O: no node: module, nothing but src/billing, src/i18n and itself', () => {
    const bad = walk(PLAUSIBILITY).flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      const node = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](node:[^'"]+|fs|path|os|child_process)['"]/g)].map((m) => m[1]!);
      const outside = importsOf(f, text).filter((m) => !/^(plausibility|billing|i18n)\//.test(m));
      const proc = /\bprocess\.(env|exit|cwd|argv|stdout|stderr|stdin|on|pid|platform)\b/.test(text) ? ['process'] : [];
      return [...node, ...outside, ...proc].map((m) => `${path.relative(SRC, f)} uses ${m}`);
    });
    expect(bad).toEqual([]);
  });

  it('is used through its index only', () => {
    const bad = walk(SRC)
      .filter((f) => !f.startsWith(PLAUSIBILITY + path.sep))
      .flatMap((f) => importsOf(f).filter((m) => m.startsWith('plausibility/') && m !== 'plausibility/index').map((m) => `${path.relative(SRC, f)} imports ${m}`));
    expect(bad).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  it('names every folder of src', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `src/${d.name}/`);
    expect(folders.filter((f) => !doc.includes(f))).toEqual([]);
  });
});
