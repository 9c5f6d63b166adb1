// Flags declared once (src/core/flags.ts, src/commands/define.ts): the handler's option types
// are inferred from the declaration, commander's options are built from it in help order,
// and each command's --help lists the exit codes its declaration gives.
import { Option } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { COMMANDS } from '../../src/commands/list.js';
import { flagsFrom, type FlagValues } from '../../src/core/flags.js';
import { cliTexts } from '../../src/texts-cli.js';
import { runCli } from '../helpers/run-cli.js';

const texts = { json: 'machine-readable', out: 'output folder', mode: 'the mode', n: 'a number' };
const flag = flagsFrom(texts);
const flags = {
  json: flag.bool('--json', 'json'),
  browser: flag.off('--no-browser', 'json'),
  out: flag.text('--out <dir>', 'out'),
  seed: flag.textOr('--seed <s>', 'n', '1'),
  mode: flag.choice('--mode <m>', 'mode', ['fast', 'slow']),
  n: flag.parsed('--n <n>', 'n', (v) => Number(v)),
  limit: flag.parsedOr('--limit <n>', 'n', (v) => Number(v), 300, '"300"'),
  plausibility: flag.bool('--no-plausibility', 'json', { alias: '--plausibility' }),
};

describe('a declared flag', () => {
  it("gives the handler its value's type: optional where the flag may be absent", () => {
    expectTypeOf<FlagValues<typeof flags>>().toEqualTypeOf<
      {
        json?: boolean | undefined;
        out?: string | undefined;
        mode?: 'fast' | 'slow' | undefined;
        n?: number | undefined;
        plausibility?: boolean | undefined;
      } & { browser: boolean; seed: string; limit: number }
    >();
  });

  it("builds commander's options with the help of its catalogue, an alias hidden before it", () => {
    const built = Object.values(flags).flatMap((f) => f.build(Option));
    expect(built.map((o) => [o.flags, o.description, o.hidden, o.attributeName()])).toEqual([
      ['--json', 'machine-readable', false, 'json'],
      ['--no-browser', 'machine-readable', false, 'browser'],
      ['--out <dir>', 'output folder', false, 'out'],
      ['--seed <s>', 'a number', false, 'seed'],
      ['--mode <m>', 'the mode', false, 'mode'],
      ['--n <n>', 'a number', false, 'n'],
      ['--limit <n>', 'a number', false, 'limit'],
      ['--plausibility', '', true, 'plausibility'],
      ['--no-plausibility', 'machine-readable', false, 'plausibility'],
    ]);
    expect(built[4]!.argChoices).toEqual(['fast', 'slow']);
    expect([built[6]!.defaultValue, built[6]!.defaultValueDescription]).toEqual([300, '"300"']);
  });

  it('tells completion its fixed values and whether a file or folder is asked for', () => {
    expect(Object.values(flags).map((f) => [f.long, f.takesValue, f.files, f.choices])).toEqual([
      ['--json', false, false, []],
      ['--no-browser', false, false, []],
      ['--out', true, true, []],
      ['--seed', true, false, []],
      ['--mode', true, false, ['fast', 'slow']],
      ['--n', true, false, []],
      ['--limit', true, false, []],
      ['--no-plausibility', false, false, []],
    ]);
  });
});

describe("each command's --help", () => {
  it.each(COMMANDS.map((c) => [c.name, c]))('`%s --help` lists the exit codes its declaration gives', async (name, c) => {
    const r = await runCli([name, '--help', '--lang', 'en']);
    const table = r.stdout.slice(r.stdout.indexOf(`${cliTexts.exitCodes}\n`));
    expect(table).toBe(`${cliTexts.exitCodes}\n${c.exits.map(([code, text]) => `  ${String(code).padEnd(2)} ${cliTexts[text]}`).join('\n')}\n\n`);
  });
});
