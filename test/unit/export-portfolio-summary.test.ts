// What the portfolio summary writes from server text: a tenant name is data, never a formula
// or a terminal control sequence.
import { describe, expect, it } from 'vitest';
import { profileLine, summaryCsv, type ProfileResult } from '../../src/export/portfolio/portfolio-summary.js';

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
