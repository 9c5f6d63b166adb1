// PowerShell: a native argument completer; the command is the first word that is neither a
// flag nor the value of --lang, and a value-taking flag before the cursor offers its values.
import type { CompletionFlag, CompletionModel } from './model.js';

const quoted = (s: string) => `'${s.replace(/'/g, "''")}'`;
const list = (items: readonly string[]) => `@(${items.map(quoted).join(', ')})`;
const names = (flags: CompletionFlag[]) => flags.flatMap((f) => (f.short ? [f.short, f.long] : [f.long]));
const values = (cmd: string, flags: CompletionFlag[]) =>
  flags.filter((f) => f.choices.length).map((f) => `    ${quoted(`${cmd} ${f.long}`)} = ${list(f.choices)}`);

export function powershellScript(m: CompletionModel): string {
  const p = m.program;
  const top = [...m.commands.map((c) => c.name), ...names(m.globals)];
  const commands = m.commands.map((c) => `    ${quoted(c.name)} = ${list([...names(c.flags), ...c.args])}`);
  const taking = [...new Set([...m.globals, ...m.commands.flatMap((c) => c.flags)].filter((f) => f.takesValue).map((f) => f.long))];
  return `# ${p} completion for PowerShell: ${p} completion powershell | Out-String | Invoke-Expression
Register-ArgumentCompleter -Native -CommandName ${quoted(p)} -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $commands = @{
${commands.join('\n')}
  }
  $values = @{
${[...values('', m.globals), ...m.commands.flatMap((c) => values(c.name, c.flags))].join('\n')}
  }
  $taking = ${list(taking)}
  $words = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
  if ($wordToComplete -ne '' -and $words.Count -gt 0) { $words = @($words | Select-Object -SkipLast 1) }
  $cmd = ''
  for ($i = 0; $i -lt $words.Count; $i++) {
    if ($words[$i] -eq '--lang') { $i++; continue }
    if (-not $words[$i].StartsWith('-')) { $cmd = $words[$i]; break }
  }
  $prev = if ($words.Count -gt 0) { $words[-1] } else { '' }
  if ($taking -contains $prev) {
    $candidates = $values["$cmd $prev"]
    if ($null -eq $candidates) { return }
  } elseif ($cmd -eq '') {
    $candidates = ${list(top)}
  } else {
    $candidates = $commands[$cmd]
  }
  $candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
    [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
  }
}
`;
}
