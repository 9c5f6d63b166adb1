// `meterdata completion <shell>` as a user installs it: the built binary's script, sourced
// into the shell and asked for completions (bash's function, fish's `complete -C`); zsh's
// and fish's scripts must parse. The commands and choices come from the declarations.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands/list.js';
import { BIN, assertBuilt } from '../helpers/bin.js';
import { requireTool } from '../helpers/tools.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'meterdata-completion-'));
const script = (shell: string, ...more: string[]) => execFileSync(process.execPath, [BIN, 'completion', shell, ...more], { encoding: 'utf8' });
const saved: Record<string, string> = {};

beforeAll(() => {
  assertBuilt();
  for (const shell of ['bash', 'zsh', 'fish', 'powershell']) writeFileSync((saved[shell] = path.join(dir, `meterdata.${shell}`)), script(shell));
  writeFileSync(path.join(dir, 'refs.csv'), 'usage_unit_id,erp_ref\n');
});

/** What bash's completion function offers for the words typed so far (the last one being completed). */
function bash(...words: string[]): string[] {
  const quoted = ['meterdata', ...words].map((w) => `'${w}'`).join(' ');
  const r = spawnSync(
    'bash',
    ['-c', `source '${saved.bash}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length}; _meterdata; printf '%s\\n' "\${COMPREPLY[@]}"`],
    { cwd: dir, encoding: 'utf8' },
  );
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

describe('meterdata completion bash', () => {
  it('offers every declared command, help and the global flags', () => {
    expect(bash('')).toEqual([...COMMANDS.map((c) => c.name), 'help', '-h', '--help', '-V', '--version', '--lang']);
    expect(bash('ex')).toEqual(['export']);
    expect(bash('help', 'st')).toEqual(['status']);
  });

  it("offers a command's flags, not the undocumented ones", () => {
    expect(bash('export', '--for')).toEqual(['--format']);
    expect(bash('export', '--no-p')).toEqual(['--no-plausibility']);
    expect(bash('export', '--pl')).toEqual([]); // --plausibility, kept for old scripts
    expect(bash('login', '--ti')).toEqual([]); // --timeout, for tests
    expect(bash('status', '--')).toEqual(['--profile', '--json', '--all', '--lang', '--help']);
  });

  it('offers the fixed values of a flag and of the shell argument', () => {
    expect(bash('export', '--format', '')).toEqual(['csv', 'xlsx']);
    expect(bash('--lang', 'de', 'export', '--template', '')).toEqual(['generic', 'de']);
    expect(bash('login', '--credential-store', '')).toEqual(['keychain', 'file']);
    expect(bash('login', '--env', 's')).toEqual(['sandbox']);
    expect(bash('export', '--metric', 'water_')).toEqual(['water_cold', 'water_warm', 'water_outdoor']);
    expect(bash('--lang', '')).toEqual(['en', 'de']);
    expect(bash('completion', '')).toEqual(['bash', 'zsh', 'fish', 'powershell']);
  });

  it('offers file names only where a file or folder is asked for', () => {
    expect(bash('export', '--unit-refs', 'ref')).toEqual(['refs.csv']);
    expect(bash('export', '--year', '')).toEqual([]);
    expect(bash('login', '--profile', 'r')).toEqual([]);
  });
});

describe('meterdata completion zsh|fish|powershell', () => {
  it('zsh: the script parses', (ctx) => {
    requireTool(ctx, 'zsh', 'shell completion');
    const r = spawnSync('zsh', ['-n', saved.zsh!], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('fish: the script parses and completes flags and values, described in the run language', (ctx) => {
    requireTool(ctx, 'fish', 'shell completion');
    expect(spawnSync('fish', ['-n', saved.fish!]).status).toBe(0);
    const german = path.join(dir, 'de.fish');
    writeFileSync(german, script('fish', '--lang', 'de'));
    const ask = (file: string, line: string) => spawnSync('fish', ['-c', `source '${file}'; complete -C '${line}'`], { encoding: 'utf8' }).stdout;
    expect(ask(saved.fish!, 'meterdata export --format ')).toBe('csv\tcsv, xlsx or both\nxlsx\tcsv, xlsx or both\n');
    expect(ask(german, 'meterdata export --format ')).toBe('csv\tcsv, xlsx oder beides\nxlsx\tcsv, xlsx oder beides\n');
    expect(ask(saved.fish!, 'meterdata ex')).toBe('export\texport billing sheets (CSV and XLSX) for a year or a date range\n');
  });

  it('powershell: a native completer naming every command, its flags and values (pwsh is not installed to run it)', () => {
    const ps = script('powershell');
    expect(ps).toContain("Register-ArgumentCompleter -Native -CommandName 'meterdata'");
    for (const c of COMMANDS) expect(ps).toMatch(new RegExp(`^    '${c.name}' = @\\(`, 'm'));
    expect(ps).toContain("'export --format' = @('csv', 'xlsx')");
    expect(ps.split('{').length).toBe(ps.split('}').length);
  });
});

describe('meterdata completion with a shell it does not know', () => {
  it('is a usage error naming the choices, in the run language', () => {
    const r = spawnSync(process.execPath, [BIN, 'completion', 'ksh'], { encoding: 'utf8' });
    expect([r.status, r.stdout, r.stderr]).toEqual([
      2,
      '',
      "meterdata: 'ksh' is not a valid shell. Allowed choices are bash, zsh, fish, powershell.\n  See: meterdata completion --help\n",
    ]);
    const de = spawnSync(process.execPath, [BIN, 'completion', 'ksh', '--lang', 'de'], { encoding: 'utf8' });
    expect([de.status, de.stderr]).toEqual([
      2,
      'meterdata: shell: „ksh“ ist nicht möglich; erlaubt sind bash, zsh, fish, powershell.\n  Hilfe: meterdata completion --help\n',
    ]);
  });
});
