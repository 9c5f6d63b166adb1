import { describe, expect, it } from 'vitest';
import { strictFailure, summaryText } from '../../src/export/summary.js';
import { describeWait } from '../../src/auth/login-wait.js';
import { describePropertyScope } from '../../src/auth/whoami.js';
import { plural, pluralWord } from '../../src/core/plural.js';
import type { ExportSummary } from '../../src/export/run.js';
import { loadTemplate } from '../../src/export/output/templates.js';
import { setLanguage } from '../../src/i18n/index.js';

describe('plural: one way to count things in messages', () => {
  it.each([
    [1, 'unit', '1 unit'],
    [2, 'unit', '2 units'],
    [0, 'request', '0 requests'],
    [9, 'match', '9 matches'],
    [1, 'match', '1 match'],
    [2, 'Property', '2 Properties'],
    [1, 'Property', '1 Property'],
    [3, 'key', '3 keys'],
    [2, 'box', '2 boxes'],
  ])('%d %s -> %s', (n, word, text) => expect(plural(n, word)).toBe(text));

  it('takes an irregular plural and agrees a verb', () => {
    expect(plural(2, 'criterion', 'criteria')).toBe('2 criteria');
    expect(pluralWord(1, 'needs', 'need')).toBe('needs');
    expect(pluralWord(4, 'needs', 'need')).toBe('need');
  });
});

function summary(files: string[], flags = { not_billed: 1, review: 0, info: 0 }): ExportSummary {
  return {
    out: '/tmp/out',
    files: files.map((name) => ({ name, bytes: 1, sha256: 'x' })),
    range: { from: '2025-01-01', to: '2025-12-31' },
    requested: { from: '2025-01-01', to: '2025-12-31' },
    pointsWithData: 1,
    tenant: 'T',
    exportedAt: '2026-01-01T00:00:00Z',
    resumed: false,
    counts: { properties: 1, units: 1, measuring_points: 1, plant_points: 0, rows: {} },
    flags,
    codes: {},
    requests: 1,
  };
}

describe('the export summary counts and names the file with the findings', () => {
  it('says "1 Property, 1 unit, 1 measuring point, 1 request"', async () => {
    const t = await loadTemplate('generic', process.cwd());
    expect(summaryText(summary(['billing.csv', 'review.csv']), t)).toContain('1 Property, 1 unit, 1 measuring point (0 plant-room/main), 1 request');
  });

  it('points to review.csv when it was written', async () => {
    const t = await loadTemplate('generic', process.cwd());
    expect(summaryText(summary(['billing.csv', 'review.csv', 'billing.xlsx']), t)).toMatch(/flags: 1 not billed, 0 to review, 0 info \(see review\.csv\)$/);
  });

  it('--format xlsx: points to the review sheet of the workbook, never to a review.csv that was not written', async () => {
    const t = await loadTemplate('generic', process.cwd());
    const text = summaryText({ ...summary(['billing.xlsx']), pointsWithData: 0 }, t);
    expect(text).not.toContain('review.csv');
    expect(text).toMatch(/flags: 1 not billed, 0 to review, 0 info \(see the "review" sheet of billing\.xlsx\)$/);
    expect(text).toContain('so nothing was billed (see the "review" sheet of billing.xlsx)');
    // The workbook's sheet names follow the run's language (a template may still name its own).
    setLanguage('de');
    const de = await loadTemplate('generic', process.cwd()).finally(() => setLanguage('en'));
    expect(summaryText(summary(['billing.xlsx']), de)).toContain('(see the "Prüfhinweise" sheet of billing.xlsx)');
  });

  it('--strict: "1 finding needs attention", "3 findings need attention", the hint naming the file', async () => {
    const t = await loadTemplate('generic', process.cwd());
    const one = strictFailure(summary(['billing.xlsx']), t)!;
    expect(one.message).toBe('--strict: 1 finding needs attention (1 not billed, 0 to review); the files were written.');
    expect(one.hint).toBe('See the "review" sheet of billing.xlsx in /tmp/out.');
    const three = strictFailure(summary(['review.csv'], { not_billed: 1, review: 2, info: 5 }), t)!;
    expect(three.message).toMatch(/^--strict: 3 findings need attention/);
    expect(three.hint).toBe('See review.csv in /tmp/out.');
    expect(strictFailure(summary(['review.csv'], { not_billed: 0, review: 0, info: 5 }), t)).toBeNull();
  });
});

describe('auth messages count with the one plural helper', () => {
  it.each([
    [60_000, '1 minute'],
    [300_000, '5 minutes'],
    [1_000, '1 second'],
    [2_000, '2 seconds'],
  ])('the sign-in wait of %d ms reads "%s"', (ms, text) => expect(describeWait(ms)).toBe(text));

  it.each([
    [['p1'], '1 Property'],
    [['p1', 'p2'], '2 Properties'],
  ])('a property scope of %j reads "%s"', (scope, text) => expect(describePropertyScope({ property_scope: scope })).toBe(text));
});
