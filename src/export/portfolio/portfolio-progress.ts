// One progress display for the exports of several profiles, on stderr. On a terminal:
// a line per profile (units, Properties, requests, state), redrawn at most 10 times a
// second. Off a terminal (cron): a log line per finished Property and per note, each
// starting with the profile's name, and nothing that redraws. --quiet: nothing.
import type { Io } from '../../core/io.js';
import { propertyLine, unitCount, type Reporter } from '../progress.js';
import { progressText as t } from '../texts-run.js';

interface Row {
  profile: string;
  units: number;
  total: number | null;
  props: number;
  propsDone: number;
  requests: () => number;
  state: string;
}

export interface PortfolioDisplay {
  reporter(profile: string, requests: () => number): Reporter;
  /** A line about one profile (sign-in warnings, resuming, its final summary). */
  note(profile: string | null, line: string): void;
  /** The profile's export ended (state: "done", "failed", ...). */
  finish(profile: string, state: string): void;
  close(): void;
}

const silent: Reporter = { begin() {}, unit() {}, property() {}, note() {}, end() {} };

export function createPortfolioDisplay(io: Io, profiles: string[], opts: { quiet: boolean; now?: () => number }): PortfolioDisplay {
  const write = (s: string) => void io.stderr.write(s);
  const prefix = (profile: string | null, line: string) =>
    line
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => (profile ? `${profile}: ${l}` : l))
      .join('\n') + '\n';
  if (opts.quiet) return { reporter: () => silent, note() {}, finish() {}, close() {} };
  if (!io.stderr.isTTY) {
    return {
      reporter: (profile) => ({ ...silent, property: (p) => write(prefix(profile, propertyLine(p))), note: (line) => write(prefix(profile, line)) }),
      note: (profile, line) => write(prefix(profile, line)),
      finish() {},
      close() {},
    };
  }
  const now = opts.now ?? Date.now;
  const started = now();
  const width = Math.max(...profiles.map((p) => p.length));
  const rows = new Map<string, Row>(
    profiles.map((p) => [p, { profile: p, units: 0, total: null, props: 0, propsDone: 0, requests: () => 0, state: t.waiting }]),
  );
  let drawnLines = 0;
  let lastDraw = 0;
  const text = (r: Row) => {
    const secs = Math.max(0.001, (now() - started) / 1000);
    return `${r.profile.padEnd(width)}  ${t.row({ units: unitCount(r.units, r.total), done: r.propsDone, total: r.props, rate: (r.requests() / secs).toFixed(1), state: r.state })}`;
  };
  const clear = () => {
    if (drawnLines) write(`\x1b[${drawnLines}A\r\x1b[J`);
    drawnLines = 0;
  };
  const draw = (force = false) => {
    const at = now();
    if (!force && at - lastDraw < 100) return;
    lastDraw = at;
    clear();
    write([...rows.values()].map((r) => `${text(r)}\n`).join(''));
    drawnLines = rows.size;
  };
  const ticker = setInterval(() => draw(true), 1000);
  ticker.unref();
  draw(true);
  const note = (profile: string | null, line: string) => {
    clear();
    write(prefix(profile, line));
    draw(true);
  };
  return {
    reporter(profile, requests) {
      const r = rows.get(profile)!;
      r.requests = requests;
      r.state = t.signingIn;
      return {
        begin(n, hint) {
          r.props = n;
          r.total = hint;
          r.state = t.fetching;
          draw(true);
        },
        unit() {
          r.units++;
          draw();
        },
        property(p) {
          r.propsDone = p.index;
          if (p.fromJournal) r.units += p.units;
          draw();
        },
        note: (line) => note(profile, line),
        end() {
          r.state = t.writing;
          draw(true);
        },
      };
    },
    note,
    finish(profile, state) {
      rows.get(profile)!.state = state;
      draw(true);
    },
    close() {
      clearInterval(ticker);
      draw(true);
      drawnLines = 0; // the final state stays on screen above the summary lines
    },
  };
}
