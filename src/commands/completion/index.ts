// `meterdata completion bash|zsh|fish|powershell`: the shell completion script, derived from
// the command list's declarations (commands, flags and their fixed choices).
import { ExitCode } from '../../core/errors.js';
import { defineCommand } from '../define.js';
import { helpTexts as h } from './texts.js';

export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

const { OK, UNEXPECTED, USAGE } = ExitCode;
export const completion = defineCommand({
  name: 'completion',
  help: () => h.completion,
  flags: {},
  args: [{ name: 'shell', help: () => h.shell, choices: SHELLS }],
  exits: [
    [OK, 'exit0'],
    [UNEXPECTED, 'exit1'],
    [USAGE, 'exit2'],
  ],
  load: () => import('./run.js'),
});
