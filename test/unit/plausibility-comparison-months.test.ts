// The comparison months an export names. The start message is written before any answer, so it names the months
// this computer's clock expects the service to answer for, and says they are expected where they follow the clock
// rather than the request; the About sheet is written after the walk and names the months the Properties were
// actually compared with (the service may answer for fewer months than the clock expects), each with its count
// where they differ. Where the service answers the whole period, both read as before.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { billProperty } from '../../src/billing/index.js';
import { parseExportArgs } from '../../src/export/options/index.js';
import type { Reporter } from '../../src/export/progress.js';
import { plausibilityStep, type AnswersWithComparison } from '../../src/export/steps/plausibility/index.js';
import { aPropertyInput, aUnitEntry, PROPERTY } from '../helpers/builders.js';

const who = { tenant_id: 't', tenant_name: 'T' } as never;
const NOW = new Date('2026-11-22T12:00:00Z');

async function stepFor(year: string, compare: string) {
  const args = parseExportArgs({ year, compare, out: '/tmp/md-months-out' }, '/tmp', {}, NOW);
  return plausibilityStep(args, who);
}

function announced(step: Awaited<ReturnType<typeof stepFor>>): string {
  const notes: string[] = [];
  step.announce!({ note: (m: string) => notes.push(m) } as unknown as Reporter, 3);
  return notes.join('\n');
}

/** One Property with a unit, billed for `range`, its comparison answered for `theirs`. */
function review(step: Awaited<ReturnType<typeof stepFor>>, id: string, range: { from: string; to: string }, theirs: { from: string; to: string }) {
  const units = [aUnitEntry('WE 01', [])];
  const answers = {
    property: { ...PROPERTY, id, tenant_id: 't', external_ref: null, addresses: [], usage_unit_count: 1 },
    units,
    plantPoints: [],
    points: [],
    comparison: { range: theirs, units: [], plantPoints: [] },
  } as unknown as AnswersWithComparison;
  step.findings!({ answers, bill: billProperty(aPropertyInput({ range, units })), range });
}

const comparisonLine = (step: Awaited<ReturnType<typeof stepFor>>) => step.about!().checks!.find(([k]) => k === 'Comparison period')?.[1];

describe('the comparison months an export names', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('the whole period answered: the start message and the About sheet as before', async () => {
    const step = await stepFor('2025', '2024');
    expect(announced(step)).toBe(
      'comparing with 2024-01-01 to 2024-12-31: one more consumption request per unit and per plant-room/main meter (3 requests for the units, about 1 minute more at 300 requests a minute).',
    );
    review(step, 'p-1', { from: '2025-01-01', to: '2025-12-31' }, { from: '2024-01-01', to: '2024-12-31' });
    expect(comparisonLine(step)).toBe('2024-01-01 – 2024-12-31');
  });

  it("this year's months: the start message says they are what the clock expects", async () => {
    const step = await stepFor('2026', '2025');
    expect(announced(step)).toMatch(/^comparing with 2025-01-01 to 2025-10-31 \(the months this computer's clock expects the service to answer for; /);
  });

  it('the service answered for fewer months than the clock expects: the About sheet names the months compared', async () => {
    const step = await stepFor('2026', '2025');
    review(step, 'p-1', { from: '2026-01-01', to: '2026-09-30' }, { from: '2025-01-01', to: '2025-09-30' });
    review(step, 'p-2', { from: '2026-01-01', to: '2026-09-30' }, { from: '2025-01-01', to: '2025-09-30' });
    expect(comparisonLine(step)).toBe('2025-01-01 – 2025-09-30');
  });

  it('Properties compared with different months: the About sheet says so, each with its count', async () => {
    const step = await stepFor('2026', '2025');
    review(step, 'p-1', { from: '2026-01-01', to: '2026-10-31' }, { from: '2025-01-01', to: '2025-10-31' });
    review(step, 'p-2', { from: '2026-01-01', to: '2026-09-30' }, { from: '2025-01-01', to: '2025-09-30' });
    review(step, 'p-3', { from: '2026-01-01', to: '2026-10-31' }, { from: '2025-01-01', to: '2025-10-31' });
    expect(comparisonLine(step)).toBe(
      'differs by Property, as the service answered for each: 2025-01-01 – 2025-09-30 (1 Property); 2025-01-01 – 2025-10-31 (2 Properties)',
    );
  });

  it('no Property compared: the About sheet says so, naming the months asked for (given bare, they read as compared)', async () => {
    const step = await stepFor('2026', '2025');
    expect(comparisonLine(step)).toBe('no Property compared (months asked for: 2025-01-01 – 2025-10-31)');
  });
});
