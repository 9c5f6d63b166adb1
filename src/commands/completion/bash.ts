// bash (and zsh's bashcompinit): one function, _meterdata, reading COMP_WORDS. The command is
// the first word that is neither a flag nor the value of --lang; the word before the cursor,
// if it is a flag taking a value, decides between its fixed values and file names.
import type { CompletionCommand, CompletionFlag, CompletionModel } from './model.js';

const words = (list: readonly string[]) => list.join(' ');
const names = (flags: CompletionFlag[]) => flags.flatMap((f) => (f.short ? [f.short, f.long] : [f.long]));

/** `cmd:--flag) …` lines for the values of a command's value-taking flags ('' for the top level). */
function valueCases(cmd: string, flags: CompletionFlag[]): string[] {
  return flags
    .filter((f) => f.takesValue)
    .map(
      (f) =>
        `    '${cmd}:${f.long}') ${f.choices.length ? `COMPREPLY=($(compgen -W '${words(f.choices)}' -- "$cur"))` : f.files ? 'COMPREPLY=($(compgen -f -- "$cur"))' : 'COMPREPLY=()'}; return ;;`,
    );
}

function commandCase(c: CompletionCommand): string {
  const flags = `compgen -W '${words(names(c.flags))}' -- "$cur"`;
  if (c.args.length === 0) return `    ${c.name}) COMPREPLY=($(${flags})) ;;`;
  return `    ${c.name}) if [[ $cur == -* ]]; then COMPREPLY=($(${flags})); else COMPREPLY=($(compgen -W '${words(c.args)}' -- "$cur")); fi ;;`;
}

export function bashScript(m: CompletionModel): string {
  const p = m.program;
  const top = [...m.commands.map((c) => c.name), ...names(m.globals)];
  return `# ${p} completion for bash: source <(${p} completion bash)
_${p}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" cmd="" i
  ((COMP_CWORD > 0)) && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      --lang) ((i++)) ;;
      -*) ;;
      *) cmd="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  case "$cmd:$prev" in
${[...valueCases('', m.globals), ...m.commands.flatMap((c) => valueCases(c.name, c.flags))].join('\n')}
  esac
  case "$cmd" in
    '') COMPREPLY=($(compgen -W '${words(top)}' -- "$cur")) ;;
${m.commands.map(commandCase).join('\n')}
  esac
}
complete -F _${p} ${p}
`;
}
