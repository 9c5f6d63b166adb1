// Writes the completion script of the shell asked for; the commands come from the command list.
import type { CommandContext } from '../context.js';
import { COMMANDS } from '../list.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import type { Shell } from './index.js';
import { completionModel, type CompletionModel } from './model.js';
import { powershellScript } from './powershell.js';
import { zshScript } from './zsh.js';

const SCRIPTS: Record<Shell, (m: CompletionModel) => string> = { bash: bashScript, zsh: zshScript, fish: fishScript, powershell: powershellScript };

export async function run(_opts: object, { io }: CommandContext, args: string[]): Promise<number> {
  io.stdout.write(SCRIPTS[args[0] as Shell](completionModel(COMMANDS)));
  return 0;
}
