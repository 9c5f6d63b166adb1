// Progress of an export on stderr. On a terminal: one bar line (units done, request
// rate, ETA) redrawn at most 10 times a second. Off a terminal (cron, pipes): one log
// line per Property and nothing that redraws. --quiet: nothing.
import type { Io } from '../core/io.js';
import { terminalSafe } from '../core/terminal-text.js';
import { progressText as t } from './texts-run.js';

export interface Reporter {
  begin(properties: number, unitsHint: number | null): void;
  unit(): void;
  /** `work`: units this Property counts on the bar when it differs from `units` (each unit twice with a fetched comparison period). */
  property(p: { index: number; total: number; name: string; units: number; plantPoints: number; flags: number; fromJournal: boolean; work?: number }): void;
  note(line: string): void;
  end(): void;
}

export function propertyLine(p: Parameters<Reporter['property']>[0]): string {
  const line = t.property({ index: p.index, total: p.total, name: terminalSafe(p.name), units: p.units, plant: p.plantPoints, flags: p.flags });
  return p.fromJournal ? `${line}${t.fromJournal}` : line;
}

/** "12/40 units", or "12 units" while the total is not known. */
export function unitCount(done: number, total: number | null): string {
  return total ? t.unitsOf({ done, total }) : t.units({ n: done });
}

function duration(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '?';
  if (s < 60) return t.seconds({ s: Math.ceil(s) });
  if (s < 3600) return t.minutes({ m: Math.floor(s / 60), s: String(Math.ceil(s % 60)).padStart(2, '0') });
  return t.hours({ h: Math.floor(s / 3600), m: String(Math.floor((s % 3600) / 60)).padStart(2, '0') });
}

export function createReporter(io: Io, opts: { quiet: boolean; requests: () => number; now?: () => number }): Reporter {
  const now = opts.now ?? Date.now;
  const write = (s: string) => void io.stderr.write(s);
  if (opts.quiet) return { begin() {}, unit() {}, property() {}, note() {}, end() {} };
  if (!io.stderr.isTTY) {
    return {
      begin() {},
      unit() {},
      property: (p) => write(`${propertyLine(p)}\n`),
      note: (line) => write(`${terminalSafe(line)}\n`),
      end() {},
    };
  }
  const started = now();
  let units = 0;
  let total: number | null = null;
  let props = 0;
  let propsDone = 0;
  let lastDraw = 0;
  let drawn = false;
  let ended = false;
  const draw = (force = false) => {
    const at = now();
    if (!force && at - lastDraw < 100) return;
    lastDraw = at;
    const secs = Math.max(0.001, (at - started) / 1000);
    const rate = opts.requests() / secs;
    const share = total ? Math.min(1, units / total) : props ? propsDone / props : 0;
    const eta = share > 0 ? (secs / share) * (1 - share) : Number.NaN;
    const width = 24;
    const filled = Math.round(share * width);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
    write(`\r\x1b[2K${t.bar({ bar, units: unitCount(units, total), done: propsDone, total: props, rate: rate.toFixed(1), eta: duration(eta) })}`);
    drawn = true;
  };
  // Redrawn once a second also while requests wait (rate limit, retries), so rate and ETA stay honest.
  let ticker: NodeJS.Timeout | undefined;
  return {
    begin(n, hint) {
      props = n;
      total = hint;
      draw(true);
      ticker = setInterval(() => draw(true), 1000);
      ticker.unref();
    },
    unit() {
      units++;
      draw();
    },
    property(p) {
      propsDone = p.index;
      if (p.fromJournal) units += p.work ?? p.units;
      draw();
    },
    note(line) {
      write(`${drawn ? '\r\x1b[2K' : ''}${terminalSafe(line)}\n`);
      // after the end (a wait for another run's commit) the bar is gone and stays gone (round 65 A3)
      if (ended) drawn = false;
      else draw(true);
    },
    end() {
      clearInterval(ticker);
      if (drawn) write('\r\x1b[2K');
      drawn = false;
      ended = true;
    },
  };
}
