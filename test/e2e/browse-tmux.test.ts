// The built `meterdata browse` in a real terminal (tmux) against the sandbox: a clerk
// finds flat WE 03's replaced heat meter and WE 09's months with an expired
// calibration (docs/sandbox-data.md, Property "Musterstraße 1-5"), reads why, exports, quits.
// Once at 100x30 with one key per send-keys, once at 80x24 with several keys per
// send-keys (they reach the program as one input chunk), once against a sandbox that
// rate-limits. The 100x30 walk runs once in each language: in German (`--lang de`) every
// pane must be German, with no English phrase of the catalogues. Every pane shown in
// docs/browse.md is written raw to test/.tmp/browse-panes/ (test/e2e/browse-doc-panes.mjs
// puts them into the docs).
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/server.js';
import { findEnglish } from '../helpers/catalogues.js';
import { signedIn } from '../helpers/signed-in.js';
import { terminal, tmuxOn } from '../helpers/tmux-pane.js';
import { requireTool } from '../helpers/tools.js';

const bin = new URL('../../bin/meterdata.js', import.meta.url).pathname;
const panesDir = new URL('../.tmp/browse-panes/', import.meta.url).pathname;
// A server of our own, so the test never touches anyone's tmux sessions.
const socket = `meterdata-browse-${process.pid}`;
const tmux = tmuxOn(socket);

function start(session: string, home: string, size: [number, number], env = '', lang: 'en' | 'de' = 'en') {
  const command = `cd ${home} && env METERDATA_HOME=${home} NO_COLOR=1 ${env} ${process.execPath} ${bin} browse --year 2025 --lang ${lang}; echo EXIT=$?; sleep 60`;
  tmux('new-session', '-d', '-s', session, '-x', String(size[0]), '-y', String(size[1]), command);
  return terminal(tmux, session, panesDir);
}

const sandboxes: Sandbox[] = [];
afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // not started (tmux missing) or already gone
  }
  await Promise.all(sandboxes.map((s) => s.close()));
});

/** A sandbox of the walk's own (closed after the file) and the METERDATA_HOME signed in to it. */
async function signedInHome(opts: SandboxOptions = {}): Promise<string> {
  const at = await signedIn({ ...opts, homePrefix: 'md-browse-' });
  sandboxes.push(at.sandbox);
  return at.home;
}

describe('meterdata browse in a terminal', () => {
  // What the walk expects to read, in each language.
  const WORDS = {
    en: {
      quit: 'q quit',
      columns: /Property\s+Address\s+Units\s+Flags/,
      plant: 'Plant-room and main meters',
      units: 'Units (21)',
      we03Row: /WE 03\s+res\s+1\. OG links\s+H [\d.]+ kWh/,
      months: 'Months:',
      removed: 'removed 2025-06-15 · device replaced',
      device: /Device WMZ-\d+ · installed 2025-06-15 · factor 1/,
      baseline: 'baseline 12.5 on 2025-06-15 (recorded)',
      monthNames: /Jan\s+Feb\s+Mar\s+Apr\s+May\s+Jun\s+Jul\s+Aug\s+Sep\s+Oct\s+Nov\s+Dec/,
      replaced: /\[i\] Device replaced during the period \(WMZ-\d+\)/,
      filtered: 'Filtered by',
      expired: 'billable 0 · X calibration expired',
      expiredFlag: /\[!\] Calibration expired/,
      why: 'Why this is flagged',
      whyFlag: /\[!\] not billed: Calibration expired/,
      where: /• WE 09 · heat point \w+ · device WMZ-\d+/,
      exported: 'Exported: \\d+ files in',
      notADate: '"2025-02-30" is not a date',
      compared: 'Range set to 2025 vs 2024',
      refused: 'Range refused',
      refusedText: 'The metering service gives no values for 2027, only for months that have ended.',
    },
    de: {
      quit: 'q Ende',
      columns: /Liegenschaft\s+Anschrift\s+NE\s+Hinw\./,
      plant: 'Anlagen- und Hauptzähler',
      units: 'Nutzeinheiten (21)',
      we03Row: /WE 03\s+Woh\s+1\. OG links\s+W [\d.,]+ kWh/,
      months: 'Monate:',
      removed: 'ausgebaut 15.06.2025 · Gerätetausch',
      device: /Zähler WMZ-\d+ · eingebaut 15\.06\.2025 · K-Faktor 1/,
      baseline: 'Anfangsstand 12,5 am 15.06.2025 (erfasst)',
      monthNames: /Jan\s+Feb\s+Mär\s+Apr\s+Mai\s+Jun\s+Jul\s+Aug\s+Sep\s+Okt\s+Nov\s+Dez/,
      replaced: /\[i\] Gerätetausch im Zeitraum \(WMZ-\d+\)/,
      filtered: 'Gefiltert nach',
      expired: 'abrechenbar 0 · X Eichfrist abgelaufen',
      expiredFlag: /\[!\] Eichfrist abgelaufen/,
      why: 'Warum dieser Hinweis',
      whyFlag: /\[!\] nicht abgerechnet: Eichfrist abgelaufen/,
      where: /• WE 09 · Messstelle Wärme \w+ · Zähler WMZ-\d+/,
      exported: 'Exportiert: \\d+ Dateien in',
      notADate: '„2025-02-30“ ist kein Datum',
      compared: 'Zeitraum jetzt 2025 ggü. 2024',
      refused: 'Zeitraum abgelehnt',
      refusedText: 'Der Messdienst liefert für 2027 keine Werte, nur für abgeschlossene Monate.',
    },
  } as const;

  it.for(['en', 'de'] as const)(
    'walks from the Properties to a replaced meter and an expired calibration at 100x30, explains the flag, exports and quits (--lang %s)',
    { timeout: 120_000 },
    async (lang, ctx) => {
      requireTool(ctx, 'tmux', 'the end-to-end test of `meterdata browse` runs it in a tmux pane');
      expect(existsSync(new URL('../../dist/cli.js', import.meta.url)), 'build first: npm run build').toBe(true);
      const w = WORDS[lang];
      const home = await signedInHome();
      const t = start(`wide-${lang}`, home, [100, 30], '', lang);
      // Every pane of the German walk is German: no English phrase of any catalogue.
      const seen = async (pane: string) => {
        if (lang === 'de') expect(await findEnglish(pane), pane).toEqual([]);
        return pane;
      };

      const list = await seen(await t.waitFor((p) => p.includes('Musterstraße 1-5') && p.includes(w.quit), 'the Properties'));
      expect(list).toMatch(w.columns);
      expect(list).toMatch(/Musterstraße 1-5\s+Musterstraße 1, 22085 Hamburg \(\+3\)\s+21\s+…/);

      await t.keys('/', 'Musterstraße 1-5', 'Enter', 'Enter');
      const property = await seen(await t.waitFor((p) => p.includes(w.plant), 'the units of Musterstraße 1-5'));
      expect(property).toContain(w.units);
      expect(property).toMatch(w.we03Row);
      if (lang === 'de') await t.save('de-property', property);

      await t.keys('/', 'WE 03', 'Enter', 'Enter');
      const we03 = await seen(await t.waitFor((p) => p.includes('Musterstraße 1-5 › WE 03') && p.includes(w.months), 'unit WE 03'));
      expect(we03).toContain(w.removed);
      expect(we03).toMatch(w.device);
      expect(we03).toContain(w.baseline);
      expect(we03).toMatch(w.monthNames);
      expect(we03).toMatch(w.replaced);

      await t.keys('Escape', 'Escape');
      await t.waitFor((p) => p.includes(w.units) && !p.includes(w.filtered), 'the whole unit list again');
      await t.keys('/', 'WE 09', 'Enter', 'Enter');
      const we09 = await seen(await t.waitFor((p) => p.includes('› WE 09') && p.includes(w.months), 'unit WE 09'));
      expect(we09).toContain(w.expired);
      expect(we09).toMatch(/ M {4}M {4}M {4}M {4}M {4}M {4}M {4}X {4}X {4}X {4}X {4}X/);
      expect(we09).toMatch(w.expiredFlag);
      if (lang === 'de') await t.save('de-we09', we09);

      await t.keys('j', 'j', 'i');
      const why = await seen(await t.waitFor((p) => p.includes(w.why), 'the explanation of the flag'));
      expect(why).toMatch(w.whyFlag);
      expect(why).toMatch(w.where);
      if (lang === 'de') await t.save('de-explain', why);

      // `e` on a unit writes the export command's files for that unit only
      await t.keys('Escape', 'e');
      // the folder ends in the start of the unit id's hash: two units of one name never share a folder
      const unitFolder = /meterdata-2025-01-01_2025-12-31-Musterstrasse-1-5-WE-09-[0-9a-f]{8}\b/;
      const exported = await seen(await t.waitFor((p) => new RegExp(`${w.exported} \\./${unitFolder.source}`).test(p), 'the unit export'));
      const unitBilling = await readFile(path.join(home, unitFolder.exec(exported)![0], 'billing.csv'), 'utf8');
      expect(unitBilling).toContain('WE 09');
      expect(unitBilling).not.toContain('WE 03');

      // and on the unit list, for the whole Property
      await t.keys('Escape', 'e');
      await seen(
        await t.waitFor((p) => new RegExp(`${w.exported} \\./meterdata-2025-01-01_2025-12-31-Musterstrasse-1-5\\b(?!-)`).test(p), 'the Property export'),
      );
      const out = path.join(home, 'meterdata-2025-01-01_2025-12-31-Musterstrasse-1-5');
      expect((await readdir(out)).sort()).toEqual(expect.arrayContaining(['billing.csv', 'billing.xlsx', 'review.csv', 'segments.csv']));
      const billing = await readFile(path.join(out, 'billing.csv'), 'utf8');
      expect(billing).toContain('WE 09');
      expect(billing).toContain('WE 03');

      // a date typed alone is read as a date
      await t.keys('y', '2025-02-30', 'Enter');
      await seen(await t.waitFor((p) => p.includes(w.notADate), 'the refused date'));
      // `e` after `y 2025 vs 2024` writes what the screen shows: the comparison and the layout of the run's language
      await t.keys('Escape', 'y', '2025 vs 2024', 'Enter');
      await seen(await t.waitFor((p) => p.includes(w.compared), 'the comparison range'));
      await t.keys('e');
      await seen(
        await t.waitFor(
          (p) => new RegExp(`${w.exported} \\./meterdata-2025-01-01_2025-12-31-Musterstrasse-1-5-vs-2024`).test(p),
          'the export with the comparison',
          60,
        ),
      ); // two periods over the browser's paced connection
      const vs = path.join(home, 'meterdata-2025-01-01_2025-12-31-Musterstrasse-1-5-vs-2024-01-01_2024-12-31');
      expect(await readdir(vs)).toContain('plausibility.csv');
      const manifest = JSON.parse(await readFile(path.join(vs, 'meterdata-manifest.json'), 'utf8')) as {
        identity: { template: string; review?: { compare: unknown } };
      };
      expect(manifest.identity.template).toBe(lang === 'de' ? 'de' : 'generic');
      expect(manifest.identity.review?.compare).toEqual({ from: '2024-01-01', to: '2024-12-31' });
      expect((await readFile(path.join(vs, 'billing.csv'), 'utf8')).replace(/^\uFEFF/, '')).toMatch(lang === 'de' ? /^[^,\n]+;/ : /^property_id,/); // the de layout: semicolons

      // a range after the last completed month: the service refuses it, browse explains it with its own key
      await t.keys('y', '2027', 'Enter');
      const refused = await seen(await t.waitFor((p) => p.includes(w.refused), 'the refused range'));
      expect(refused.replace(/\s+/g, ' ')).toContain(w.refusedText);
      expect(refused).not.toContain('--year');

      await t.keys('q');
      await t.waitFor((p) => p.includes('EXIT=0'), 'a clean exit with status 0');
    },
  );

  it('works at 80x24 with keys arriving several at once, and keeps the panes for the docs', async (ctx) => {
    requireTool(ctx, 'tmux', 'the end-to-end test of `meterdata browse` runs it in a tmux pane');
    const home = await signedInHome();
    const t = start('narrow', home, [80, 24]);

    await t.save('properties', await t.waitFor((p) => p.includes('Musterstraße 1-5') && p.includes('q quit'), 'the Properties'));
    // text and Enter in one chunk: the prompt takes the text and closes
    await t.chunk('/Musterstraße 1-5', 'Enter');
    await t.waitFor((p) => p.includes('Filtered by "Musterstraße 1-5"'), 'the kept filter');
    await t.chunk('Enter');
    const loading = await t.waitFor((p) => p.includes('Loading Musterstraße 1-5') || p.includes('Units (21)'), 'the Property loading');
    if (loading.includes('Loading')) await t.save('loading', loading);
    const property = await t.waitFor((p) => p.includes('Units (21)'), 'the units at 80 columns');
    await t.save('property', property);
    expect(property).toMatch(/more ↓ \(\d+ lines below\)/);
    const we10 = property.split('\n').find((l) => l.includes('WE 10'))!;
    expect(we10).toMatch(/WE 10\s+res\s+\S/);
    for (const code of ['H ', 'HCA ', 'CW ', 'WW ']) expect(we10).toContain(code);
    expect(we10).toMatch(/ \d+[!?i]$/);

    // a filter, its Enter and the Enter that opens the unit, all in one chunk
    await t.chunk('/WE 03', 'Enter', 'Enter');
    const we03 = await t.waitFor((p) => p.includes('› WE 03') && p.includes('Months:'), 'unit WE 03 at 80 columns');
    expect(we03.split('\n')[0]).toMatch(/Properties › Musterstraße 1-5 › WE 03 +range 2025$/);
    await t.save('we03', we03);

    await t.keys('Escape', 'Escape');
    await t.waitFor((p) => p.includes('Units (21)') && !p.includes('Filtered by'), 'the whole unit list again');
    await t.chunk('/WE 09', 'Enter', 'Enter');
    await t.save('we09', await t.waitFor((p) => p.includes('› WE 09') && p.includes('Months:'), 'unit WE 09 at 80 columns'));
    // j then Enter in one chunk: Enter acts on the line j moved to (the flag), not the old one
    await t.chunk('j', 'j', 'Enter');
    const why = await t.waitFor((p) => p.includes('Why this is flagged'), 'the explanation');
    expect(why).toMatch(/\[!\] not billed: Calibration expired/);
    await t.save('explain', why);

    await t.keys('Escape', 'Escape', 'Escape');
    await t.waitFor((p) => p.includes('Units (21)') && !p.includes('Filtered by'), 'the unit list');
    await t.chunk('/Wärme');
    await t.save('filter', await t.waitFor((p) => p.includes('Filter: Wärme'), 'the filter prompt'));
    await t.chunk('Enter', 'Enter');
    await t.save('plant', await t.waitFor((p) => p.includes('Plant-room or main meter'), 'the plant-room meter'));
    await t.chunk('y202', 'Enter');
    await t.save('range', await t.waitFor((p) => p.includes('"202" is not a year'), 'the refused range'));
    await t.keys('Escape', '?');
    const help = await t.waitFor((p) => p.includes('Keys') && p.includes('more ↓'), 'the help');
    await t.save('help', help);
    await t.chunk(...Array<string>(40).fill('j'));
    const end = await t.waitFor((p) => p.includes('end ↑'), 'the end of the help');
    expect(end).toContain('Press Esc or ? to close.');
    expect(end).toMatch(/res +residential/);
    await t.save('help-end', end);

    await t.keys('Escape', 'Escape', 'Escape');
    await t.waitFor((p) => p.includes('Units (21)') && !p.includes('Filtered by'), 'the unit list once more');
    await t.keys('e');
    await t.save('export', await t.waitFor((p) => p.includes('Exported:'), 'the export from the unit list'));
    await t.keys('Escape', 'Escape', 'c');
    await t.save('count', await t.waitFor((p) => p.includes('Flags counted for'), 'the flags of every Property counted'));
    await t.keys('q');
    await t.waitFor((p) => p.includes('EXIT=0'), 'a clean exit with status 0');
  }, 120_000);

  it('Ctrl-C typed in the browser ends it like the signal does: exit 130', async (ctx) => {
    requireTool(ctx, 'tmux', 'the end-to-end test of `meterdata browse` runs it in a tmux pane');
    const home = await signedInHome();
    const t = start('ctrl-c', home, [80, 24]);
    await t.waitFor((p) => p.includes('Musterstraße 1-5') && p.includes('q quit'), 'the Properties');
    await t.keys('C-c');
    const end = await t.waitFor((p) => p.includes('EXIT='), 'the exit');
    expect(end).toContain('EXIT=130');
  }, 60_000);

  it('shows the wait while the service rate-limits, and a signed-out screen', async (ctx) => {
    requireTool(ctx, 'tmux', 'the end-to-end test of `meterdata browse` runs it in a tmux pane');
    const home = await signedInHome({ rateLimitPerMinute: 12 });
    const t = start('limited', home, [80, 24]);
    await t.waitFor((p) => p.includes('Musterstraße 1-5'), 'the Properties');
    await t.chunk('/Musterstraße 1-5', 'Enter', 'Enter');
    const limited = await t.waitFor((p) => p.includes('Rate limited by the service: waiting'), 'the rate-limit wait');
    expect(limited).toMatch(/waiting \d+ s before the next request/);
    await t.save('rate-limited', limited);
    // keys keep working while the client waits
    await t.keys('Escape');
    await t.waitFor((p) => p.includes('Property') && p.includes('Address'), 'the Properties while waiting');

    const out = start('signed-out', home, [80, 24], 'METERDATA_ACCESS_TOKEN=expired-or-revoked');
    const signedOut = await out.waitFor((p) => p.includes('Not signed in') || p.includes('EXIT='), 'the signed-out screen');
    expect(signedOut).toContain('Not signed in');
    await out.save('signed-out', signedOut);
    await out.keys('q');
  }, 120_000);
});
