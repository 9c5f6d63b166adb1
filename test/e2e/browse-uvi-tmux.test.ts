// The built `meterdata browse` in a real terminal (tmux) against the sandbox's landlord for the
// monthly consumption information, Wohnbau Rheinblick eG (docs/sandbox-data.md): from
// Rheinuferstraße 14's WE 04, `m` shows November 2025 as the letter does, in German
// (1.062,6 kWh * on the calculated month), with the 13 months and the benchmark's source; Esc
// goes back to the unit and q quits with 0. The pane is written to test/.tmp/browse-panes/.
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { findEnglish } from '../helpers/catalogues.js';
import { signedIn } from '../helpers/signed-in.js';
import { terminal, tmuxOn } from '../helpers/tmux-pane.js';
import { requireTool } from '../helpers/tools.js';

const bin = new URL('../../bin/meterdata.js', import.meta.url).pathname;
const panesDir = new URL('../.tmp/browse-panes/', import.meta.url).pathname;
// A server of our own, so the test never touches anyone's tmux sessions.
const tmux = tmuxOn(`meterdata-browse-uvi-${process.pid}`);

let sandbox: Sandbox | undefined;
afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // not started (tmux missing) or already gone
  }
  await sandbox?.close();
});

describe('the monthly information in browse, in a terminal', () => {
  it('shows Rheinuferstraße 14 WE 04’s November 2025 as the letter does, goes back with Esc and quits', { timeout: 120_000 }, async (ctx) => {
    requireTool(ctx, 'tmux', 'the end-to-end test of `meterdata browse` runs it in a tmux pane');
    expect(existsSync(new URL('../../dist/cli.js', import.meta.url)), 'build first: npm run build').toBe(true);
    const at = await signedIn({ autoConsentTenant: 'Wohnbau Rheinblick eG', homePrefix: 'md-browse-uvi-' });
    sandbox = at.sandbox;
    // A range given on the command line: the monthly information ends with its last month, November 2025.
    const command = `cd ${at.home} && env METERDATA_HOME=${at.home} NO_COLOR=1 ${process.execPath} ${bin} browse --from 2024-12-01 --to 2025-11-30 --lang de; echo EXIT=$?; sleep 60`;
    tmux('new-session', '-d', '-s', 'uvi', '-x', '100', '-y', '40', command);
    const t = terminal(tmux, 'uvi', panesDir);

    await t.waitFor((p) => p.includes('Rheinuferstraße 14') && p.includes('Am Leinpfad 3'), 'the Properties');
    await t.keys('j', 'Enter');
    await t.waitFor((p) => /WE 04\s+Woh/.test(p), 'Rheinuferstraße 14');
    await t.keys('j', 'j', 'j', 'Enter');
    const unit = await t.waitFor((p) => p.includes('› WE 04') && p.includes('m Monat'), 'WE 04 with m in its footer');
    expect(unit).toContain('Monate:');
    await t.keys('m');
    const pane = await t.waitFor((p) => p.includes('Monatsinformation') && p.includes('Durchschnittsnutzer'), 'the monthly information', 30);
    await t.save('uvi-we04', pane);
    expect(pane).toContain('Rheinuferstraße 14 › WE 04 › Monatsinformation');
    expect(pane).toContain('Was die Verbrauchsinformation für November 2025 zeigt (§ 6a HeizkostenV), 13');
    expect(pane).toContain('── Heizung (kWh) ──');
    // November 2025 rests on a calculated reading: the letter's figure with its mark.
    expect(pane).toMatch(/Dieser Monat +1\.062,6 kWh \* +November 2025/);
    expect(pane).toMatch(/Vormonat +[\d.]+,\d kWh +\d+ % (mehr|weniger) als im Oktober 2025/);
    expect(pane).toMatch(/Nov 2025 +1\.062,6 \* +[\d.]+,\d/);
    expect(pane).toMatch(/Nov 2024 +[\d.]+,\d +[\d.]+,\d/);
    expect(await findEnglish(pane)).toEqual([]);

    // The benchmark's source is named further down, reached with the keys shown.
    await t.keys('PageDown', 'PageDown', 'PageDown', 'PageDown');
    const notes = await t.waitFor((p) => p.includes('DIW Wärmemonitor'), 'the benchmark’s source');
    expect(notes.replace(/\s+/g, ' ')).toContain('Quelle: Heizung: DIW Wärmemonitor 2023 (DIW Berlin mit ista)');

    await t.keys('Escape');
    await t.waitFor((p) => p.includes('› WE 04') && p.includes('Monate:') && !p.includes('Monatsinformation'), 'WE 04 again');
    await t.keys('q');
    const end = await t.waitFor((p) => p.includes('EXIT='), 'an exit');
    expect(end).toContain('EXIT=0');
  });
});
