// The hint to a process that waited too long for the refresh lock: its holder may be alive and waiting out the
// sign-in server's 429s (up to 30 s, three times), so removing the lock is advised only when no other meterdata
// process runs (round 26: "if it persists, remove …" invited breaking a live refresh's lock).
import { afterEach, describe, expect, it } from 'vitest';
import { tokenTexts } from '../../src/auth/texts-tokens.js';
import { setLanguage } from '../../src/i18n/index.js';

afterEach(() => setLanguage('en'));

describe('the refresh lock held too long', () => {
  it('the hint says to remove it only when no other meterdata process runs, in both languages', () => {
    expect(tokenTexts.lockTimeoutHint({ file: '/s/locks/default.refresh.lock' })).toMatch(
      /if it persists and no other meterdata process is running .*remove \/s\/locks\/default\.refresh\.lock\.$/,
    );
    setLanguage('de');
    expect(tokenTexts.lockTimeoutHint({ file: '/s/l' })).toMatch(/wenn es anhält und kein anderer meterdata-Prozess läuft .*entfernen Sie \/s\/l\.$/);
  });
});
