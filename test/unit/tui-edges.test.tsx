// Rough edges of browse (issue 14): `i` on a point line explains its devices' flags too,
// no stale message above an overlay, a kept filter stays named after a range change, and
// load errors classified by their code, never by the words in it.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { MeterdataError, ServiceUnavailableError, type ErrorCode } from '../../src/core/errors.js';
import { describeError } from '../../src/tui/errors.js';
import { fakeData, KEY, mount, openFlat32, press } from '../helpers/tui-fake.js';

afterEach(() => cleanup());

describe('browse edges', () => {
  it('i on a point line explains the flags of its devices', async () => {
    const app = mount(fakeData(), { width: 100, height: 60 });
    await openFlat32(app);
    // the warm-water point: its only flags are on its device (calibration expired)
    for (let i = 0; i < 30 && !/^> +Point \w+ · billed 0 m3/m.test(app.lastFrame() ?? ''); i++) await press(app.stdin, KEY.down);
    expect(app.lastFrame()).toMatch(/^> +Point \w+ · billed 0 m3/m);
    await press(app.stdin, 'i');
    const f = await app.frame((s) => s.includes('Why this is flagged') || s.includes('no flags to explain'), 'an answer to i');
    expect(f).toContain('Why this is flagged');
    expect(f).toMatch(/\[!\] not billed: Calibration expired/);
    expect(f).toMatch(/• 3\.2 · warm water point \w+ · device WW-2231/);
  });

  it('opens the explanation without the message of the screen below above it', async () => {
    const app = mount(fakeData());
    await app.frame((s) => s.includes('Am Markt 3'));
    await press(app.stdin, KEY.enter);
    await app.frame((s) => s.includes('Units ('));
    await press(app.stdin, 'e');
    await app.frame((s) => s.includes('Export from here is not available'));
    await press(app.stdin, 'i');
    const f = await app.frame((s) => s.includes('Why this is flagged'));
    expect(f).not.toContain('Export from here');
    await press(app.stdin, '?');
    await press(app.stdin, '?');
    await app.frame((s) => s.includes('Keys'), 'the help over the explanation');
  });

  it('keeps naming a kept filter after y changed the range', async () => {
    const data = fakeData();
    const app = mount(data);
    await app.frame((s) => s.includes('Am Markt 3'));
    await press(app.stdin, KEY.enter);
    await app.frame((s) => s.includes('Units ('));
    app.stdin.write('/EG\r');
    await app.frame((s) => s.includes('Filtered by "EG": 1 match'));
    app.stdin.write('y');
    await app.frame((s) => s.includes('Range: '));
    app.stdin.write('2024\r');
    const f = await app.frame((s) => s.includes('range 2024') && s.includes('EG links'), 'the Property over 2024');
    expect(f).toContain('Range set to 2024');
    expect(f).toContain('Filtered by "EG": 1 match (Esc clears)');
    expect(f).not.toMatch(/^.*3\.2 +res/m); // and the list is still filtered
    await press(app.stdin, KEY.esc);
    const whole = await app.frame((s) => /3\.2 +res/.test(s), 'the whole list');
    expect(whole).not.toContain('Filtered by');
  });
});

describe('load errors', () => {
  it('classifies a rate limit by its code, not by letters in the code', () => {
    expect(describeError(new ServiceUnavailableError('429 x6', { code: 'RATE_LIMITED' })).kind).toBe('rate-limited');
    expect(describeError(new ServiceUnavailableError('wait 2 h', { code: 'RATE_LIMITED_TOO_LONG' })).kind).toBe('rate-limited');
    expect(describeError(new ServiceUnavailableError('token 429', { code: 'AUTH_RATE_LIMITED' })).kind).toBe('rate-limited');
    // "GENERATED", "SEPARATE", "ACCURATE": no rate limit, whatever letters the code has
    const other = describeError(new MeterdataError('the answer is not valid', { code: 'API_GENERATED_ID_INVALID' as ErrorCode, exitCode: 5 }));
    expect(other).toMatchObject({ kind: 'other', title: 'Could not load', retryable: true });
    expect(describeError(new ServiceUnavailableError('503 x6', { code: 'SEPARATE_OUTAGE' as ErrorCode }))).toMatchObject({
      kind: 'unavailable',
      title: 'Service unavailable',
    });
  });
});
