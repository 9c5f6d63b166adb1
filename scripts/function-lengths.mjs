// The figures the working rules limit: the longest functions in src and the files over
// 300 lines. A function's length is counted as eslint's max-lines-per-function counts it
// in eslint.config.js: every line from its first to its last, blank lines, comments and
// nested functions included (a factory of closures is one function to read).
// Usage: node scripts/function-lengths.mjs [--top N] [dir ...]   (default: --top 10 src)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const MAX_FILE_LINES = 300;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  let top = 10;
  const dirs = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--top') {
      top = Number(argv[++i]);
      if (!Number.isInteger(top) || top < 1) {
        console.error('function-lengths: --top wants a whole number of at least 1, e.g. --top 10');
        process.exit(2);
      }
    } else dirs.push(argv[i]);
  }
  return { top, dirs: dirs.length > 0 ? dirs : ['src'] };
}

function sourceFiles(dir) {
  return readdirSync(path.resolve(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

/** What a reader calls the function: its own name, the variable or property it is assigned to, or its place. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name) return p.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

function functionsOf(file) {
  const text = readFileSync(path.resolve(root, file), 'utf8');
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : file.endsWith('.ts') || file.endsWith('.mts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const out = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ file, line: first + 1, name: nameOf(node), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
  return { functions: out, lines };
}

const { top, dirs } = parseArgs(process.argv.slice(2));
const functions = [];
const longFiles = [];
for (const file of dirs.flatMap(sourceFiles)) {
  const r = functionsOf(file);
  functions.push(...r.functions);
  if (r.lines > MAX_FILE_LINES) longFiles.push({ file, lines: r.lines });
}
functions.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
console.log(`The ${top} longest functions in ${dirs.join(', ')} (lines, nested functions included):`);
for (const f of functions.slice(0, top)) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.file}:${f.line}`);
console.log(longFiles.length === 0 ? `No file over ${MAX_FILE_LINES} lines.` : `Files over ${MAX_FILE_LINES} lines:`);
for (const f of longFiles.sort((a, b) => b.lines - a.lines)) console.log(`${String(f.lines).padStart(5)}  ${f.file}`);
