// What the portfolio summary writes from server text: a tenant name is data, never a formula
// or a terminal control sequence.
import { describe, expect, it } from 'vitest';
import { describeFailure, profileLine, summaryCsv, type ProfileResult } from '../../src/export/portfolio/portfolio-summary.js';
import { InterruptedError } from '../../src/core/errors.js';
import { takenOver } from '../../src/export/journal/index.js';

const hostile = '=HYPERLINK("http://x","\u001b[2Jclick")\u202e';

const exported = (tenant: string): ProfileResult => ({
  profile: 'nordlicht',
  out: '/srv/2025/nordlicht',
  outcome: 'exported',
  exitCode: 0,
  seconds: 1.5,
  summary: {
    out: '/srv/2025/nordlicht',
    range: { from: '2025-01-01', to: '2025-12-31' },
    requested: { from: '2025-01-01', to: '2025-12-31' },
    pointsWithData: 3,
    tenant,
    exportedAt: '2026-11-23T10:00:00.000Z',
    resumed: false,
    counts: { properties: 1, units: 2, measuring_points: 3, plant_points: 0, rows: 2 },
    flags: { not_billed: 0, review: 1, info: 0 },
    codes: [],
    requests: 7,
  } as unknown as ProfileResult['summary'],
});

describe('portfolio summary', () => {
  it('neutralises a tenant name that a spreadsheet would run as a formula; numbers stay numbers', () => {
    const csv = summaryCsv([exported(hostile)]);
    const row = csv.split('\r\n')[1]!;
    expect(row).toContain(`"'=HYPERLINK(""http://x"",""`);
    expect(row).not.toMatch(/,=|^=|,"=/);
    expect(row).toContain(',1,2,0,1,0,7,1.5,');
  });

  it("prints the summary line with the tenant name's control characters escaped", () => {
    const line = profileLine(exported(hostile));
    expect(line).not.toMatch(/[\u001b\u202e]/);
    expect(line).toContain('\\u{1b}[2J');
    expect(line).toContain('\\u{202e}');
  });
});

describe("a profile stopped because the portfolio's folder was taken over", () => {
  it('is told as the folder taken over (exit 2), not as interrupted (130), even while still signing in', () => {
    const signal = AbortSignal.abort(takenOver('/srv/2025'));
    for (const e of [new InterruptedError(), new Error('aborted'), signal.reason]) {
      const { exitCode, error } = describeFailure(e, signal);
      expect([exitCode, error.code]).toEqual([2, 'EXPORT_OUT_TAKEN_OVER']);
      expect(error.message).toContain('/srv/2025');
    }
  });

  it('Ctrl-C is still an interruption', () => {
    const { exitCode } = describeFailure(new Error('aborted'), AbortSignal.abort(new InterruptedError()));
    expect(exitCode).toBe(130);
  });

  // Round 26: a profile waiting for its refresh lock got the signal's own INTERRUPTED, the walking ones EXPORT_INTERRUPTED.
  it("one Ctrl-C is one code: a profile stopped in its refresh lock's wait is EXPORT_INTERRUPTED too", () => {
    const signal = AbortSignal.abort(new InterruptedError());
    for (const e of [signal.reason, new Error('aborted')]) {
      const { exitCode, error } = describeFailure(e, signal);
      expect([exitCode, error.code]).toEqual([130, 'EXPORT_INTERRUPTED']);
    }
  });
});
