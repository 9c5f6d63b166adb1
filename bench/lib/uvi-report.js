// The table rows of figure 6, `meterdata uvi` (bench/lib/uvi.js): every figure beside its target.
const f = (x, d = 2) => (x === null || x === undefined || Number.isNaN(x) ? '–' : Number(x).toFixed(d));

export function uviRows(runs, row) {
  for (const u of runs) {
    const h = u.data_set_holds;
    const ds = `${u.units_in_data_set.toLocaleString('en')}-unit data set (${u.units_in_scope.toLocaleString('en')} units, ${h.properties} Properties), ${u.limit_per_min}/min, load ${u.load_at_start.join(' ')} → ${u.load_at_end.join(' ')}`;
    const metrics = (m) =>
      Object.entries(m)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ');
    const b = u.base_breakdown;
    row(
      6,
      `uvi: what the data set holds`,
      `plant points: ${metrics(h.plant_points_by_metric)} (${h.properties_without_plant_point} Properties without); unit points: ${metrics(h.unit_points_by_metric)}`,
      '',
      null,
    );
    row(
      6,
      `uvi: requests ÷ (units + plant points + pages), ${ds}`,
      `${f(u.requests_made / u.requests_base, 4)} (${u.requests_made} made / ${u.requests_base} = ${b.consumption} + ${b.plant_readings} + ${b.properties + b.unit_pages + b.point_pages} pages); 429s ${u.too_many_requests}`,
      '≤ 1.01',
      u.requests_made <= u.requests_bound && u.too_many_requests === 0,
    );
    row(
      6,
      `uvi: wall time ÷ what its requests need at the limit ((requests − burst ${Math.floor(u.limit_per_min / 20)}) × 60/L), ${ds}`,
      `${f(u.wall_ratio, 3)} (${f(u.wall_s, 1)} s / ${f(u.requests_need_s, 1)} s; first request at ${f(u.first_request_s, 1)} s, last at ${f(u.last_request_s, 1)} s)`,
      '≤ 1.05',
      u.wall_ratio <= 1.05,
    );
    const workers = (u.threads ?? []).filter((t) => t.ran !== null);
    const main = (u.threads ?? []).find((t) => t.ran === null);
    row(
      6,
      `uvi: PDF pages per CPU second of the whole process (start-up, walk, computation and every file included), ${ds}`,
      `${f(u.pages_per_cpu_s, 0)} (${u.pdf.letter_pages} pages in ${u.pdf.letters} letters + ${u.pdf.combined_pages} in ${u.pdf.combined} combined PDFs, ${f(u.cpu_s, 1)} s CPU: main thread ${f(main?.cpu_s, 1)}, ${workers.map((t) => `${t.ran} ${f(t.cpu_s, 1)}`).join(', ') || 'no workers'})`,
      '(reported)',
      null,
    );
    row(6, `uvi: peak RSS, ${ds}`, `${f(u.peak_rss_mib, 0)} MiB (${f((u.pdf.bytes / 2 ** 20) * 1, 1)} MiB of PDFs written)`, 'bounded as the export’s', null);
  }
}
