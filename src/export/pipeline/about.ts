// The About sheet of billing.xlsx: what was exported, when and how, in the run's language
// (dates as the reader writes them: 31.12.2025 in German). The run's own record, so part of
// the pipeline; the steps add their lines after it.
import { day, language } from '../../i18n/index.js';
import type { Severity } from '../../billing/types.js';
import { aboutTexts } from '../output/index.js';

export interface AboutFacts {
  tenant: string;
  /** The connection's Property scope: all, or the names of the Properties granted. */
  scope: 'all' | string[];
  /** --property: the names of the Properties exported; null without it. */
  exported: string[] | null;
  range: { from: string; to: string };
  contract: string;
  /** ISO date-time (UTC). */
  exportedAt: string;
  toolVersion: string;
  template: string;
  counts: { properties: number; units: number; measuring_points: number; plant_points: number };
  flags: Record<Severity, number>;
}

/** "2026-11-22T10:00:00.000Z" as "22.11.2026 10:00:00" in German; unchanged in English. */
export function dateTime(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return language() === 'de' && m ? `${day(m[1]!)} ${m[2]}` : iso;
}

/** Label/value pairs, in order; `more` (the steps' lines, step.ts AboutLines) come last. */
export function aboutRows(f: AboutFacts, more: [string, string | number][] = []): [string, string | number][] {
  const t = aboutTexts;
  const rows: [string, string | number][] = [
    [t.tenant, f.tenant],
    [t.scope, f.scope === 'all' ? t.scopeAll : f.scope.join(', ')],
    ...(f.exported ? [[t.exported, f.exported.join(', ')] as [string, string]] : []),
    [t.from, day(f.range.from)],
    [t.to, day(f.range.to)],
    [t.contract, f.contract],
    [t.exportTime, dateTime(f.exportedAt)],
    [t.toolVersion, f.toolVersion],
    [t.template, f.template],
    [t.properties, f.counts.properties],
    [t.units, f.counts.units],
    [t.points, f.counts.measuring_points],
    [t.plantPoints, f.counts.plant_points],
    [t.notBilled, f.flags.not_billed],
    [t.review, f.flags.review],
    [t.info, f.flags.info],
  ];
  return [...rows, ...more];
}
