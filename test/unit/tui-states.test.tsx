// Loading, empty and error states of the browser, and the rate-limit wait: the UI
// must draw each and keep answering keys.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { AccessWithdrawnError, NotSignedInError, ServiceUnavailableError } from '../../src/core/errors.js';
import type { PropertyBundle } from '../../src/tui/data.js';
import { bundleFor, deferred, fakeData, KEY, MARKT, mount, openFlat32, press } from '../helpers/tui-fake.js';

afterEach(() => cleanup());

describe('browse states', () => {
  it('draws a loading state until the Properties arrive', async () => {
    const list = deferred<never[]>();
    const { frame } = mount(fakeData({ properties: () => list.promise }));
    const f = await frame((s) => s.includes('Loading Properties…'));
    expect(f).toContain('q quit');
    list.resolve([]);
    const empty = await frame((s) => s.includes('No Properties are shared with this connection.'));
    expect(empty).toContain('run meterdata login to connect again');
  });

  it.each([
    [new NotSignedInError('You are not signed in (profile "default").'), 'Not signed in', 'meterdata login'],
    [new AccessWithdrawnError('The landlord no longer shares Property Lindenstraße 12.'), 'Access withdrawn', 'connect again'],
    [new ServiceUnavailableError('The service answered 503 after 6 attempts.'), 'Service unavailable', 'Press r to try again'],
    [
      new ServiceUnavailableError('The metering service kept rate-limiting /properties (HTTP 429) after 6 attempts.', {
        code: 'RATE_LIMITED',
        hint: 'wait a few minutes',
      }),
      'Rate limited',
      'wait a few minutes',
    ],
    [new Error('boom'), 'Unexpected failure (a bug: please report it)', 'boom'],
  ])('shows %s as a screen, not a crash', async (error, title, hint) => {
    const { frame, stdin, lastFrame } = mount(fakeData({ properties: () => Promise.reject(error) }));
    const f = await frame((s) => s.includes(title));
    expect(f).toContain(hint);
    expect(f).not.toContain('Esc to go back'); // nothing to go back to from the first screen
    expect(f).toMatch(/Press (r to try again, )?q to quit\./);
    await press(stdin, '?');
    await frame((s) => s.includes('Monthly status letters'), 'help still opens');
    await press(stdin, '?');
    expect(lastFrame()).toContain(title);
  });

  it('retries with r after the service was unavailable', async () => {
    let attempt = 0;
    const data = fakeData({
      properties: () =>
        ++attempt === 1 ? Promise.reject(new ServiceUnavailableError('The service answered 503 after 6 attempts.')) : Promise.resolve([MARKT]),
    });
    const { frame, stdin } = mount(data);
    await frame((s) => s.includes('Service unavailable'));
    await press(stdin, 'r');
    await frame((s) => s.includes('Am Markt 3'));
    expect(data.calls.listProperties).toBe(2);
  });

  it('shows the wait while the service rate-limits, and counts down', async () => {
    const data = fakeData();
    const { frame } = mount(data);
    await frame((s) => s.includes('Am Markt 3'));
    data.emit({ type: 'retry', path: '/v1/properties', status: 503, reason: 'HTTP 503 service-unavailable', waitMs: 500, attempt: 2 });
    data.emit({ type: 'rate-limited', waitMs: 2_000 });
    await frame((s) => /Rate limited by the service: waiting 2 s before the next request/.test(s));
    await frame((s) => /waiting 1 s/.test(s), 'countdown');
    // when the wait is over, the last retry note is shown again
    await frame((s) => s.includes('Retrying after HTTP 503 service-unavailable (attempt 2)…'), 'after the wait');
  });

  it('shows load progress of a Property, keeps keys working, and an error there goes back with Esc', async () => {
    const held = deferred<PropertyBundle>();
    let first = true;
    const data = fakeData({
      load: (p, range, onProgress) => {
        if (!first) return Promise.resolve(bundleFor(p, range));
        first = false;
        onProgress?.({ done: 3, total: 8 });
        return held.promise;
      },
    });
    const { frame, stdin } = mount(data);
    await frame((s) => s.includes('Am Markt 3'));
    await press(stdin, KEY.enter);
    await frame((s) => s.includes('Loading Lindenstraße 12 (2025): 3 of 8 units…'));
    await press(stdin, '?');
    await frame((s) => s.includes('Monthly status letters'), 'help while loading');
    await press(stdin, KEY.esc);
    data.emit({ type: 'retry', path: '/v1/usage-units/x/consumption', status: 503, reason: 'HTTP 503 service-unavailable', waitMs: 250, attempt: 2 });
    await frame((s) => s.includes('Retrying after HTTP 503 service-unavailable (attempt 2)…'));
    held.reject(new AccessWithdrawnError('The landlord no longer shares Property Lindenstraße 12.'));
    const failed = await frame((s) => s.includes('Access withdrawn') && s.includes('Press Esc to go back'));
    expect(failed).not.toContain('Retrying'); // the note belonged to the load that ended
    await press(stdin, KEY.esc);
    await frame((s) => s.includes('Am Markt 3') && !s.includes('Access withdrawn'));
    await press(stdin, KEY.enter);
    await frame((s) => s.includes('Plant-room'), 'a second try loads again');
  });

  it('names the unit and range when a unit is missing after a range change', async () => {
    const data = fakeData({ load: (p, range) => Promise.resolve(range.from.startsWith('2024') ? { ...bundleFor(p, range), units: [] } : bundleFor(p, range)) });
    const { frame, stdin } = mount(data);
    await frame((s) => s.includes('Am Markt 3'));
    await press(stdin, KEY.enter);
    await frame((s) => s.includes('Plant-room'));
    await press(stdin, KEY.enter);
    await frame((s) => s.includes('HZ-NEW-4711'));
    await press(stdin, 'y', ...'2024', KEY.enter);
    await frame((s) => s.includes('This is not part of Lindenstraße 12 for 2024. Press Esc to go back.'));
  });

  it('uses colour only when allowed, and the letters carry the meaning either way', async () => {
    const { default: chalk } = await import('chalk');
    const level = chalk.level;
    chalk.level = 1;
    try {
      const colored = mount(fakeData(), { width: 100, height: 60 }, true);
      expect(await openFlat32(colored)).toMatch(/\u001B\[3[1-6]m/);
      colored.unmount();
      const p = await openFlat32(mount(fakeData(), { width: 100, height: 60 }, false));
      expect(p).not.toMatch(/\u001B\[3[0-9]m/);
      expect(p).toMatch(/ M {4}M {4}- {4}X/);
    } finally {
      chalk.level = level;
    }
  });
});
