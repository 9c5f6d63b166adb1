// zsh: _arguments per command, with the help texts as descriptions. Loaded from $fpath
// (#compdef) or sourced (compdef), as gh's script is.
import type { CompletionCommand, CompletionFlag, CompletionModel } from './model.js';

/** A text inside a single-quoted _arguments spec: no quote or bracket to end it early. */
function said(text: string): string {
  return text.replace(/'/g, "'\\''").replace(/\[/g, '(').replace(/\]/g, ')');
}

function spec(f: CompletionFlag): string {
  const value = !f.takesValue ? '' : f.choices.length ? `:${f.long.slice(2)}:(${f.choices.join(' ')})` : `:${f.long.slice(2)}:${f.files ? '_files' : ' '}`;
  const text = `[${said(f.help)}]${value}`;
  return f.short ? `'(${f.short} ${f.long})'{${f.short},${f.long}}'${text}'` : `'${f.long}${text}'`;
}

function commandCase(c: CompletionCommand): string {
  const args = [...c.flags.map(spec), ...(c.args.length ? [`'1:${c.name === 'help' ? 'command' : 'value'}:(${c.args.join(' ')})'`] : [])];
  return `        ${c.name}) _arguments ${args.join(' \\\n            ')} ;;`;
}

export function zshScript(m: CompletionModel): string {
  const p = m.program;
  const described = m.commands.map((c) => `    '${c.name}:${said(c.help)}'`).join('\n');
  return `#compdef ${p}
# ${p} completion for zsh: ${p} completion zsh > "\${fpath[1]}/_${p}", or source <(${p} completion zsh)
_${p}() {
  local -a commands
  commands=(
${described}
  )
  local state line
  _arguments -C ${m.globals.map(spec).join(' ')} '1: :->command' '*:: :->args'
  case $state in
    command) _describe 'command' commands ;;
    args)
      case $line[1] in
${m.commands.map(commandCase).join('\n')}
      esac ;;
  esac
}
if [ "$funcstack[1]" = "_${p}" ]; then
  _${p} "$@"
else
  compdef _${p} ${p}
fi
`;
}
