// What `meterdata completion --help` says about the command and its flags (declared in index.ts).
import { catalogue } from '../../i18n/index.js';

export const helpTexts = catalogue(
  'cli-help-completion',
  {
    completion: 'print the shell completion script of meterdata (bash, zsh, fish or powershell)',
    shell: 'the shell to complete commands, flags and their choices in',
  },
  {
    completion: 'das Skript zur Vervollständigung von meterdata in der Shell ausgeben (bash, zsh, fish oder powershell)',
    shell: 'die Shell, in der Befehle, Optionen und ihre Werte vervollständigt werden',
  },
);
