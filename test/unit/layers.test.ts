// The layers of docs/architecture.md: a command (its folder src/commands/<verb>/) is the top of
// its own stack. It never imports another command (what two commands share lives in
// src/export, src/auth, … or beside the commands: define.ts, texts*.ts), nothing below the
// commands imports one, and only the command list (src/commands/list.ts) names them, for
// src/cli.ts. A declaration (index.ts) loads its handler only when the command runs. The
// plausibility review is pure and used through its index, as are the folders of src/export
// (the output and each of its formats); billing imports nothing above it, and the catalogue of
// finding codes (src/findings) only what is above those; the doc names every folder of src.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/bin.js';

const SRC = path.join(ROOT, 'src');
const COMMANDS = path.join(SRC, 'commands');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? walk(path.join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [path.join(dir, d.name)] : [],
  );
}

/** Every relative module a source file imports (static, re-exported or dynamic), as a path under src without extension. */
function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => path.relative(SRC, path.resolve(path.dirname(file), s)).replace(/\.(js|tsx?)$/, ''));
}

/** The command a module belongs to (`commands/login/run` → `commands/login`); undefined for what sits beside the commands. */
const commandOf = (mod: string) => /^commands\/[^/]+(?=\/)/.exec(mod)?.[0];
const isCommand = (mod: string) => commandOf(mod) !== undefined;
const rel = (f: string) => path.relative(SRC, f).replace(/\.tsx?$/, '');

describe('the command layer', () => {
  it('finds static, dynamic and re-exported imports', () => {
    const file = path.join(COMMANDS, 'x.ts');
    const text =
      "import { a } from './export/run.js';\nconst { b } = await import('../export/single.js');\nexport { c } from './texts-export.js';\nimport './demo/index.js';";
    expect(importsOf(file, text)).toEqual(['commands/export/run', 'export/single', 'commands/texts-export', 'commands/demo/index']);
    expect([commandOf('commands/export/run'), commandOf('commands/texts-export'), commandOf('commands/list')]).toEqual([
      'commands/export',
      undefined,
      undefined,
    ]);
  });

  it('no command imports another command; only the command list names them, by their declarations', () => {
    const bad = walk(COMMANDS).flatMap((f) => {
      const own = commandOf(rel(f));
      const allowed = (m: string) => commandOf(m) === own || (rel(f) === 'commands/list' && m.endsWith('/index'));
      return importsOf(f)
        .filter((m) => isCommand(m) && !allowed(m))
        .map((m) => `${rel(f)} imports ${m}`);
    });
    expect(bad).toEqual([]);
  });

  it("a declaration imports its handler only when the command runs (--help loads no command's code)", () => {
    const bad = walk(COMMANDS)
      .filter((f) => path.basename(f) === 'index.ts')
      .flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s+)['"]\.\/run\.js['"]/g)].map(() => `${rel(f)} imports ./run.js statically`),
      );
    expect(bad).toEqual([]);
  });

  it('nothing outside the commands imports one; src/cli.ts reads only the command list, define.ts and the context', () => {
    const bad = walk(SRC)
      .filter((f) => !f.startsWith(COMMANDS + path.sep))
      .flatMap((f) =>
        importsOf(f)
          .filter((m) => isCommand(m) || (rel(f) !== 'cli' && /^commands\/(list|define|context)$/.test(m)))
          .map((m) => `${rel(f)} imports ${m}`),
      );
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
      .flatMap((f) =>
        importsOf(f)
          .filter((m) => m.startsWith('plausibility/') && m !== 'plausibility/index')
          .map((m) => `${path.relative(SRC, f)} imports ${m}`),
      );
    expect(bad).toEqual([]);
  });
});

describe('billing and the catalogue of finding codes (src/findings)', () => {
  it('billing imports nothing of the plausibility review, the export or the catalogue: their codes join its type by declaration', () => {
    const bad = walk(path.join(SRC, 'billing')).flatMap((f) =>
      importsOf(f)
        .filter((m) => !/^(billing|api|i18n)\//.test(m))
        .map((m) => `${rel(f)} imports ${m}`),
    );
    expect(bad).toEqual([]);
  });

  it('the catalogue sits above billing, the plausibility review and the export: none of the folders below imports it', () => {
    const above = /^(tui|commands|cli|cli-help|findings)(\/|$)/;
    const bad = walk(SRC)
      .filter((f) => !above.test(rel(f)))
      .flatMap((f) =>
        importsOf(f)
          .filter((m) => m.startsWith('findings/'))
          .map((m) => `${rel(f)} imports ${m}`),
      );
    expect(bad).toEqual([]);
  });
});

const EXPORT = path.join(SRC, 'export');

/** The folders under src/export with a public surface (index.ts), e.g. export/output, export/output/formats/xlsx. */
function surfaces(dir = EXPORT): string[] {
  const below = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => surfaces(path.join(dir, d.name)));
  return [...(dir !== EXPORT && readdirSync(dir).includes('index.ts') ? [path.relative(SRC, dir)] : []), ...below];
}

/** What `file` imports of a folder in `folders` it is not in, other than the folder's index. */
function intoFolders(file: string, folders: string[], text?: string): string[] {
  // the innermost folder holding the module is the one whose surface counts (steps/<name>/index is the step's)
  const innermost = (m: string) => folders.filter((d) => m.startsWith(`${d}/`)).sort((a, b) => b.length - a.length)[0];
  return importsOf(file, text).filter((m) => {
    const d = innermost(m);
    return d !== undefined && !rel(file).startsWith(`${d}/`) && m !== `${d}/index`;
  });
}

describe('the folders of src/export (the output, each format)', () => {
  const folders = surfaces();

  it('finds the output and each format as a folder with an index', () => {
    expect(folders).toEqual(expect.arrayContaining(['export/output', 'export/output/formats/csv', 'export/output/formats/xlsx']));
  });

  it("catches an import of a folder's other file from outside it, not from within", () => {
    const text = "import { a } from './output/formats/xlsx/xlsx-writer.js';\nimport { b } from './output/index.js';\nimport { c } from './output/tables.js';";
    expect(intoFolders(path.join(EXPORT, 'run.ts'), folders, text)).toEqual(['export/output/formats/xlsx/xlsx-writer', 'export/output/tables']);
    const inside = "import { a } from './registry.js';\nimport { b } from './formats/xlsx/sinks.js';\nimport { c } from './formats/csv/index.js';";
    expect(intoFolders(path.join(EXPORT, 'output', 'index.ts'), folders, inside)).toEqual(['export/output/formats/xlsx/sinks']);
  });

  it('are used through their index only: nothing outside a folder imports its other files', () => {
    const bad = walk(SRC).flatMap((f) => intoFolders(f, folders).map((m) => `${rel(f)} imports ${m}`));
    expect(bad).toEqual([]);
  });

  it('the pipeline names no step, and a step imports no other step: only the steps list (steps/index.ts) names them', () => {
    const steps = path.join(EXPORT, 'steps');
    const stepOf = (mod: string) => /^export\/steps\/[^/]+(?=\/)/.exec(mod)?.[0];
    const bad = [
      ...walk(path.join(EXPORT, 'pipeline')).flatMap((f) =>
        importsOf(f)
          .filter((m) => m.startsWith('export/steps/'))
          .map((m) => `${rel(f)} imports ${m}`),
      ),
      ...walk(steps).flatMap((f) =>
        importsOf(f)
          .filter((m) => stepOf(m) !== undefined && stepOf(m) !== stepOf(rel(f)) && rel(f) !== 'export/steps/index')
          .map((m) => `${rel(f)} imports ${m}`),
      ),
    ];
    expect(bad).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  it('names every folder of src', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `src/${d.name}/`);
    expect(folders.filter((f) => !doc.includes(f))).toEqual([]);
  });
});
