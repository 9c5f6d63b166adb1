import { uviRows } from './uvi-report.js';
// The Markdown table of one bench run: every figure with its target and whether it is met.
const f = (x, d = 2) => (x === null || x === undefined || Number.isNaN(x) ? '–' : Number(x).toFixed(d));
const ok = (met) => (met ? 'met' : '**not met**');

export function table(r) {
  const m = r.machine;
  const lines = [
    `### ${r.date.slice(0, 10)} — ${r.profile} profile, ${r.runs} run(s) per export figure (medians)`,
    '',
    `Machine: ${m.cores} cores (${m.cpu}), Node ${m.node}, ${m.platform}; load average at start ${m.loadavg_at_start.join(' ')}. Started ${r.date}, finished ${r.finished}.${r.command ? ` Command: \`${r.command}\`.` : ''}`,
    '',
    '| # | figure | measured | target | |',
    '|---|---|---|---|---|',
  ];
  const row = (n, what, got, target, met) =>
    lines.push(`| ${n} | ${what} | ${got} | ${target} | ${met === null ? '' : typeof met === 'string' ? met : ok(met)} |`);
  for (const s of r.rate) {
    const ds = `${s.units_in_data_set.toLocaleString('en')}-unit data set (${s.units_exported.toLocaleString('en')} units exported)`;
    row(
      1,
      `request optimality, ${ds}, ${s.limit_per_min}/min`,
      `${f(s.optimality, 4)} (${s.requests_made} made / ${s.requests_minimum} minimum)`,
      '1.00',
      s.optimality < 1.005,
    );
    row(
      2,
      `use of the rate limit L=${s.limit_per_min}/min, latency ${s.latency_ms.join('-')} ms, ${ds}`,
      `${f(s.use_of_limit, 3)} (${f(s.achieved_per_min, 0)}/min over ${f(s.traffic_minutes, 1)} min; max ${s.max_in_any_60s} in any 60 s)`,
      '≥ 0.95',
      s.use_of_limit >= 0.95,
    );
    row(2, `429 answers at L=${s.limit_per_min}/min`, String(s.too_many_requests), '0', s.too_many_requests === 0);
  }
  for (const c of r.cost) {
    const ds = `${c.units_in_data_set.toLocaleString('en')}-unit data set (${c.units_exported.toLocaleString('en')} exported)`;
    row(
      3,
      `client cost, ${ds}: export ÷ raw fetch paced at the same --rate-limit ${c.rate_limit_flag}`,
      `${f(c.ratio_vs_paced)} (${f(c.export_s, 1)} s / ${f(c.raw_paced_s, 1)} s)`,
      '≤ 1.25',
      c.ratio_vs_paced <= 1.25,
    );
    row(
      3,
      `client cost, ${ds}: export ÷ raw fetch unpaced (concurrency ${c.concurrency})`,
      `${f(c.ratio_vs_unpaced)} (${f(c.export_s, 1)} s / ${f(c.raw_unpaced_s, 1)} s)`,
      '(≤ 1.25)',
      c.ratio_vs_unpaced <= 1.25,
    );
    row(
      3,
      `peak RSS of the export process, ${ds}`,
      `${f(c.peak_rss_mib, 0)} MiB`,
      c.units_in_data_set <= 10_000 ? '≤ 200 MB' : 'flat vs 10,000',
      c.units_in_data_set <= 10_000 ? c.peak_rss_mib <= 200 : null,
    );
  }
  if (r.cost.length >= 2) {
    const [a, b] = [r.cost[0], r.cost.at(-1)];
    const growth = b.peak_rss_mib / a.peak_rss_mib;
    const scale = b.units_exported / a.units_exported;
    row(
      3,
      `peak RSS growth ${a.units_in_data_set.toLocaleString('en')} → ${b.units_in_data_set.toLocaleString('en')} (${f(scale, 1)}× the units)`,
      `${f(growth)}×`,
      'flat (≈ 1×)',
      growth <= 1.2,
    );
  }
  if (r.portfolio) {
    const q = r.portfolio;
    const ds = `${q.units_in_data_set.toLocaleString('en')}-unit data set (${q.units_exported} units) per connection, L=${q.limit_per_min}/min each, latency ${q.latency_ms.join('-')} ms`;
    const one = q.rows.find((y) => y.p === 1);
    for (const x of q.rows) {
      const load = `load ${x.load_at_start.join(' ')} → ${x.load_at_end[0]}`;
      if (x.p !== 1) {
        if (one)
          row(
            5,
            `portfolio: wall time of P=${x.p} ÷ P=1, ${ds}`,
            `${f(x.wall_ratio)} (${f(x.wall_s, 1)} s / ${f(one.wall_s, 1)} s; ${load})`,
            '≤ 1.10',
            x.wall_ratio <= 1.1,
          );
        else row(5, `portfolio P=${x.p}: wall time, ${ds}`, `${f(x.wall_s, 1)} s (${load})`, '(reported)', null);
        const b = x.bound;
        if (b)
          row(
            5,
            `portfolio P=${x.p}: lowest ratio the workbooks alone allow on ${b.cores} idle cores, not counting the walks' thread's own work when P largest Properties end together (walks end with P=1's at ${f(one.walk_end_s, 1)} s, then ${x.p} workbooks of ${f(b.workbook_cpu_s, 2)} s CPU, ${b.cores} at a time; or all CPU ÷ ${b.cores})`,
            `≥ ${f(b.lowest_ratio)}; target reachable up to P=${b.p_within_target}`,
            '≤ 1.10',
            b.lowest_ratio <= 1.1 ? 'not the limit' : `out of reach on ${b.cores} cores`,
          );
      } else row(5, `portfolio P=1: wall time, ${ds}`, `${f(x.wall_s, 1)} s (${load})`, '(reported)', null);
      row(
        5,
        `portfolio P=${x.p}: lowest use of its own limit over the connections (burst of ${x.burst} excluded); 429s`,
        `${f(x.min_use_of_limit, 3)} (plain rate ÷ L at most ${f(x.max_plain_rate_over_limit, 3)}); ${x.too_many_requests}`,
        '≥ 0.97; 0',
        x.min_use_of_limit >= 0.97 && x.too_many_requests === 0,
      );
      row(
        5,
        `portfolio P=${x.p}: phases: last request at; tail after it; CPU of the walks' thread (sign-in, walk, billing, CSV, spools); of the workbooks (${x.workbooks} in ${x.workbook_threads} worker threads, at most ${x.workbooks_at_once} at once); of Node's own threads (GC, file I/O, zlib); total`,
        `${f(x.walk_end_s, 1)} s; ${f(x.tail_s, 1)} s; ${f(x.cpu_walk_s, 1)} s; ${f(x.cpu_workbooks_s, 1)} s; ${f(x.cpu_other_s, 1)} s; ${f(x.cpu_s, 1)} s`,
        '(reported)',
        null,
      );
      row(
        5,
        `portfolio P=${x.p}: peak RSS; CPU per request`,
        `${f(x.peak_rss_mib, 0)} MiB; ${f(x.cpu_per_request_us, 0)} µs${q.raw_cpu_per_request_us ? ` (${f(x.cpu_per_request_us / q.raw_cpu_per_request_us, 1)}× raw fetch's ${f(q.raw_cpu_per_request_us, 0)} µs)` : ''}`,
        '(reported)',
        null,
      );
    }
    if (q.marginal_walk_cpu_per_request_us != null) {
      const raw = q.raw_request_cpu_per_request_us;
      const whole = q.marginal_cpu_per_request_us / raw;
      // issue 25's target: the whole process's CPU for one more connection's request against the raw fetch's own
      row(
        5,
        `portfolio: CPU per request of one more connection (P=${q.rows.at(-1).p} − P=1), whole process ÷ the raw fetch without start-up; the walks' thread alone`,
        `${f(whole)}× (${f(q.marginal_cpu_per_request_us, 0)} µs / ${f(raw, 0)} µs); walks ${f(q.marginal_walk_cpu_per_request_us, 0)} µs (${f(q.marginal_walk_cpu_per_request_us / raw, 1)}×)`,
        '≤ 1.5×',
        whole <= 1.5,
      );
    }
  }
  if (r.startup) {
    const s = r.startup;
    // issue 25: ≤ 2.0× `node -e 0`, judged by wall time as before; CPU time (Linux) alongside, for a busy machine
    const cpu = (name) =>
      s[`${name}_cpu_ratio`] == null ? '' : `; CPU ${f(s[`${name}_cpu_ratio`])} (${f(s[`${name}_cpu_ms`], 0)} ms / ${f(s.node_cpu_ms, 0)} ms)`;
    const startRow = (what, name) =>
      row(
        4,
        `${what} ÷ \`node -e 0\` (${s.runs} runs)`,
        `${f(s[`${name}_ratio`])} (${f(s[`${name}_ms`], 0)} ms / ${f(s.node_ms, 0)} ms)${cpu(name)}`,
        '≤ 2.0',
        s[`${name}_ratio`] <= 2.0,
      );
    const lang = s.lang ? `LANG ${s.lang}` : 'no LANG';
    startRow(`\`meterdata --version\` (${lang})`, 'version');
    startRow(`\`meterdata --help\` (${lang})`, 'help');
    if (s.exe_version_ratio != null) startRow('single executable `meterdata-linux-x64 --version`', 'exe_version');
    else row(4, 'single executable `--version` ÷ `node -e 0`', 'not measured: build/meterdata-linux-x64 missing (npm run build:exe)', '≤ 2.0', null);
    if (s.before_version_ratio != null) startRow(`before: \`${s.before.bin} --version\``, 'before_version');
    if (s.before_help_ratio != null) startRow(`before: \`${s.before.bin} --help\``, 'before_help');
    if (s.before_exe_version_ratio != null) startRow(`before: \`${s.before.exe} --version\``, 'before_exe_version');
    if (s.loadavg_at_end) row(4, 'load average at the end of the start-up rounds', s.loadavg_at_end.join(' '), '', null);
  }
  if (r.uvi?.length) uviRows(r.uvi, row);
  return `${lines.join('\n')}\n`;
}
