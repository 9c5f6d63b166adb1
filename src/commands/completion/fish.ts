// fish: one `complete` line per command and flag, each flag offered after its command only.
import type { CompletionFlag, CompletionModel } from './model.js';

const said = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function flagLine(p: string, when: string, f: CompletionFlag): string {
  const short = f.short ? ` -s ${f.short.slice(1)}` : '';
  const value = !f.takesValue ? '' : f.choices.length ? ` -x -a ${said(f.choices.join(' '))}` : f.files ? ' -r -F' : ' -x';
  return `complete -c ${p} -n ${said(when)}${short} -l ${f.long.slice(2)}${value} -d ${said(f.help)}`;
}

export function fishScript(m: CompletionModel): string {
  const p = m.program;
  const lines = [`# ${p} completion for fish: ${p} completion fish > ~/.config/fish/completions/${p}.fish`, `complete -c ${p} -f`];
  for (const f of m.globals) lines.push(flagLine(p, '__fish_use_subcommand', f));
  for (const c of m.commands) lines.push(`complete -c ${p} -n __fish_use_subcommand -a ${c.name} -d ${said(c.help)}`);
  for (const c of m.commands) {
    const when = `__fish_seen_subcommand_from ${c.name}`;
    for (const f of c.flags) lines.push(flagLine(p, when, f));
    if (c.args.length) lines.push(`complete -c ${p} -n ${said(when)} -a ${said(c.args.join(' '))}`);
  }
  return `${lines.join('\n')}\n`;
}
