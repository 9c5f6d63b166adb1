import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commanderUsageCode, ERROR_CODES, ExitCode, isErrorCode, isRateLimit, type ErrorCode } from '../../src/core/codes.js';
import { ROOT } from '../helpers/bin.js';

const SRC = join(ROOT, 'src');
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [join(dir, d.name)] : []));

// Where `code:` means something else: a billing flag (src/billing, src/plausibility: FlagCode,
// typed on its own) or an address's country code (the sandbox's data).
const OTHER_CODES = /^(billing|plausibility|sandbox\/data)\//;

/** Every error-code literal in the sources: `code: 'X'`, `code ?? 'X'`, `code = 'X'`, and the code argument of `new UsageError(…, 'X')`. */
function codeLiterals(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\bcode(?:\??: (?:[A-Za-z]+ = )?| \?\? | = )'([A-Z][A-Za-z0-9_]*)'/g)) found.push(m[1]!);
  for (const m of text.matchAll(/new UsageError\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)/g)) {
    const last = /,\s*'([A-Z][A-Z0-9_]*)'\s*,?\s*$/.exec(m[1]!);
    if (last) found.push(last[1]!);
  }
  return found;
}

describe('the error-code table', () => {
  const source = readFileSync(join(SRC, 'core', 'codes.ts'), 'utf8');
  const table = source.slice(source.indexOf('export const ERROR_CODES'), source.indexOf('} as const satisfies'));

  it('lists each code once', () => {
    const keys = [...table.matchAll(/^\s+([A-Z][A-Z0-9_]*): \{/gm)].map((m) => m[1]!);
    expect(keys.length).toBe(Object.keys(ERROR_CODES).length);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('maps every code to exit statuses documented in the README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const documented = new Set([...readme.slice(readme.indexOf('## Exit codes')).matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1])));
    const statuses = new Set<number>(Object.values(ExitCode));
    const bad = Object.entries(ERROR_CODES).filter(([, e]) => {
      const exits: readonly number[] = e.exit;
      return exits.length === 0 || exits.some((x) => !statuses.has(x) || !documented.has(x) || x === ExitCode.OK);
    });
    expect(bad).toEqual([]);
  });

  it('holds every code the sources give an error', () => {
    const missing: string[] = [];
    let seen = 0;
    for (const file of walk(SRC)) {
      const rel = relative(SRC, file);
      if (OTHER_CODES.test(rel)) continue;
      for (const code of codeLiterals(readFileSync(file, 'utf8'))) {
        seen++;
        if (!isErrorCode(code)) missing.push(`${rel}: ${code}`);
      }
    }
    expect(seen).toBeGreaterThan(80);
    expect(missing).toEqual([]);
  });

  it('finds the literals it scans for (so the scan above can fail)', () => {
    expect(codeLiterals("throw new UsageError(`x ${a(b)}`, 'hint', 'NOT_IN_TABLE');")).toEqual(['NOT_IN_TABLE']);
    expect(codeLiterals("super(m, { code: opts.code ?? 'ALSO_NOT' })")).toEqual(['ALSO_NOT']);
    expect(codeLiterals("const refuse = (d: string, code: ErrorCode = 'THIRD') => 1; x = { code: 'FOURTH', exitCode: 1 }")).toEqual(['THIRD', 'FOURTH']);
  });

  it('gives each of commander command-line errors a usage code of its own', () => {
    const lib = readdirSync(join(ROOT, 'node_modules', 'commander', 'lib'))
      .map((f) => readFileSync(join(ROOT, 'node_modules', 'commander', 'lib', f), 'utf8'))
      .join('\n');
    const codes = [...new Set([...lib.matchAll(/'(commander\.[A-Za-z]+)'/g)].map((m) => m[1]!))];
    // help and version end with exit 0; `error` is program.error(), which meterdata never calls; the async one is for executable subcommands.
    const notUsage = new Set(['commander.help', 'commander.helpDisplayed', 'commander.version', 'commander.error', 'commander.executeSubCommandAsync']);
    const mapped = codes.filter((c) => !notUsage.has(c)).map((c) => [c, commanderUsageCode(c)] as const);
    expect(mapped.length).toBeGreaterThanOrEqual(8);
    expect(mapped.filter(([, code]) => code === 'USAGE' || ERROR_CODES[code].exit[0] !== ExitCode.USAGE)).toEqual([]);
    expect(commanderUsageCode('commander.unknownOption')).toBe('USAGE_UNKNOWN_OPTION');
  });

  it('marks the rate limits (browse offers a retry), and nothing else', () => {
    const rate = (Object.keys(ERROR_CODES) as ErrorCode[]).filter(isRateLimit).sort();
    expect(rate).toEqual(['AUTH_RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED_TOO_LONG', 'RATE_LIMIT_BUDGET_SPENT']);
  });
});
