// The export's own texts in a German run: progress, summary, --strict, the portfolio's
// lines, the About sheet and the errors of its folders. English runs are the other tests'.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Io } from '../../src/core/io.js';
import { setLanguage } from '../../src/i18n/index.js';
import { loadComparisonFolder } from '../../src/export/folder/compare-folder.js';
import { checkOutDir } from '../../src/export/folder/out-folder.js';
import { createPortfolioDisplay } from '../../src/export/portfolio/portfolio-progress.js';
import { describeFailure, profileLine, type ProfileResult } from '../../src/export/portfolio/portfolio-summary.js';
import { createReporter, propertyLine } from '../../src/export/progress.js';
import { nameList, runExport } from '../../src/export/run.js';
import type { ExportSummary } from '../../src/export/run.js';
import { strictFailure, summaryText } from '../../src/export/summary.js';
import { loadTemplate } from '../../src/export/output/templates.js';
import { findEnglish } from '../helpers/catalogues.js';
import { T0, dataset, fakeApi, reporter, setup } from '../helpers/export-fixtures.js';

afterEach(() => setLanguage('en'));

function stderr(tty: boolean): { io: Io; text: () => string } {
  const err = new PassThrough() as PassThrough & { isTTY?: boolean };
  err.isTTY = tty;
  let text = '';
  err.on('data', (c: Buffer) => (text += c.toString('utf8')));
  return {
    io: { stdout: new PassThrough(), stderr: err, stdin: Readable.from([]), env: {}, cwd: '/', signal: new AbortController().signal },
    text: () => text,
  };
}

const summary = (over: Partial<ExportSummary> = {}): ExportSummary => ({
  out: '/srv/2025',
  files: [
    { name: 'billing.csv', bytes: 1, sha256: 'x', rows: 1234 },
    { name: 'review.csv', bytes: 1, sha256: 'x', rows: 1 },
    { name: 'billing.xlsx', bytes: 1, sha256: 'x' },
  ],
  range: { from: '2025-01-01', to: '2025-10-31' },
  requested: { from: '2025-01-01', to: '2025-12-31' },
  pointsWithData: 0,
  tenant: 'Nordlicht',
  exportedAt: '2026-11-22T08:00:00Z',
  resumed: true,
  counts: { properties: 1, units: 1200, measuring_points: 3, plant_points: 1, rows: {} },
  flags: { not_billed: 1, review: 2, info: 1 },
  codes: {},
  requests: 1,
  ...over,
});

describe('progress in German', () => {
  it('a log line per Property off a terminal', () => {
    setLanguage('de');
    const line = propertyLine({ index: 3, total: 12, name: 'Musterstraße 1-5', units: 48, plantPoints: 1, flags: 1, fromJournal: true });
    expect(line).toBe('Liegenschaft 3/12 „Musterstraße 1-5“: 48 Nutzeinheiten, 1 Hauptzähler, 1 Hinweis (aus dem Zwischenstand des abgebrochenen Laufs)');
  });

  it('the bar on a terminal: thousands with a dot, the rate with a comma, the time left in German', async () => {
    setLanguage('de');
    const t = stderr(true);
    let now = 0;
    const r = createReporter(t.io, { quiet: false, requests: () => 25, now: () => now });
    r.begin(2, 1200);
    for (let i = 0; i < 599; i++) r.unit();
    now = 10_000;
    r.unit();
    r.end();
    expect(t.text()).toMatch(/\[#{12}-{12}\] 600\/1\.200 Nutzeinheiten · Liegenschaft 0\/2 · 2,5 Abfragen\/s · Restzeit 10 s/);
    expect(await findEnglish(t.text())).toEqual([]);
  });

  it("the portfolio's lines per profile", async () => {
    setLanguage('de');
    const t = stderr(true);
    const d = createPortfolioDisplay(t.io, ['nord', 'sued'], { quiet: false, now: () => 0 });
    d.reporter('nord', () => 0).begin(3, 10);
    d.close();
    const last = t
      .text()
      .slice(t.text().lastIndexOf('\x1b[J') + 3)
      .split('\n');
    expect(last.slice(0, 2)).toEqual([
      'nord  0/10 Nutzeinheiten · Liegenschaft 0/3 · 0,0 Abfragen/s · ruft ab',
      'sued  0 Nutzeinheiten · Liegenschaft 0/0 · 0,0 Abfragen/s · wartet',
    ]);
  });
});

describe('the summary in German', () => {
  it('says what was written, the shortened range and the missing data with dates dd.mm.yyyy', async () => {
    setLanguage('de');
    const text = summaryText(summary(), await loadTemplate('generic', process.cwd()));
    expect(text.split('\n')).toEqual([
      '/srv/2025 geschrieben für 01.01.2025 bis 31.10.2025: billing.csv (1.234 Zeilen), review.csv (1 Zeile), billing.xlsx',
      'Zeitraum verkürzt: angefordert 01.01.2025 bis 31.12.2025, der Dienst lieferte 01.01.2025 bis 31.10.2025 (er liefert nur abgeschlossene Monate und keine Daten nach dem letzten); das Manifest des Ordners nennt 01.01.2025 bis 31.10.2025',
      'Keine Daten: Für 01.01.2025 bis 31.10.2025 hat keine Messstelle Werte (3 Messstellen), daher wurde nichts abgerechnet (siehe review.csv)',
      '1 Liegenschaft, 1.200 Nutzeinheiten, 3 Messstellen (davon 1 Hauptzähler), 1 Abfrage, fortgesetzt',
      'Hinweise: 1 nicht abgerechnet, 2 zu prüfen, 1 nur zur Information (siehe review.csv)',
    ]);
    expect(await findEnglish(text)).toEqual([]);
  });

  it('--strict fails in German, naming the sheet of the workbook', async () => {
    setLanguage('de');
    const e = strictFailure(summary({ files: [{ name: 'billing.xlsx', bytes: 1, sha256: 'x' }] }), await loadTemplate('generic', process.cwd()))!;
    expect(e.message).toBe('--strict: 3 Hinweise erfordern Aufmerksamkeit (1 nicht abgerechnet, 2 zu prüfen); die Dateien wurden geschrieben.');
    expect(e.hint).toBe('Siehe Blatt „Prüfhinweise“ in billing.xlsx in /srv/2025.');
    expect(await findEnglish(`${e.message} ${e.hint}`)).toEqual([]);
  });

  it("the portfolio's line per profile: exported, kept, failed", async () => {
    setLanguage('de');
    const s = summary();
    const base: ProfileResult = { profile: 'nord', out: '/srv/2025/nord', outcome: 'exported', exitCode: 0, seconds: 2.25, summary: s };
    const lines = [
      profileLine(base),
      profileLine({ ...base, outcome: 'kept', exitCode: 6 }),
      profileLine({ ...base, outcome: 'failed', summary: undefined, ...describeFailure(new Error('x'), AbortSignal.abort()) }),
    ];
    expect(lines).toEqual([
      'Profil nord: exportiert in 2,3 s: „Nordlicht“, 1 Liegenschaft, 1.200 Nutzeinheiten, Hinweise 1 nicht abgerechnet, 2 zu prüfen, 1 nur zur Information, 1 Abfrage -> /srv/2025/nord',
      'Profil nord: im früheren Lauf exportiert, beibehalten (--strict: Exit-Code 6): „Nordlicht“, 1 Liegenschaft, 1.200 Nutzeinheiten, Hinweise 1 nicht abgerechnet, 2 zu prüfen, 1 nur zur Information, 1 Abfrage -> /srv/2025/nord',
      'Profil nord: fehlgeschlagen (Exit-Code 130, EXPORT_INTERRUPTED): Abgebrochen, bevor der Export dieses Profils begann. Führen Sie denselben Befehl erneut aus, um fortzusetzen.',
    ]);
    expect(await findEnglish(lines.join('\n'))).toEqual([]);
  });
});

async function aboutRows(out: string): Promise<unknown[][]> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path.join(out, 'billing.xlsx'));
  // the rows of every sheet: the About sheet's name and place are the layout's business
  return wb.worksheets.flatMap((ws) =>
    ws
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1)),
  );
}

describe("the About sheet follows the run's language, not the template's", () => {
  it('German run, generic layout: German labels, dates dd.mm.yyyy', async () => {
    setLanguage('de');
    const s = await setup('generic');
    await runExport({ api: fakeApi(dataset()).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    const rows = await aboutRows(s.args.out);
    expect(rows).toContainEqual(['Mandant', 'Nordlicht']);
    expect(rows).toContainEqual(['Freigegebene Liegenschaften', 'alle (auch künftige)']);
    expect(rows).toContainEqual(['Von', '01.01.2025']);
    expect(rows).toContainEqual(['Bis', '31.12.2025']);
    expect(rows).toContainEqual(['Exportzeit (UTC)', '22.11.2026 08:00:00']);
    expect(rows).toContainEqual(['Liegenschaften', 3]);
  });

  it('English run, de layout: English labels, ISO dates', async () => {
    setLanguage('en');
    const s = await setup('de');
    await runExport({ api: fakeApi(dataset()).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 });
    const rows = await aboutRows(s.args.out);
    expect(rows).toContainEqual(['Tenant', 'Nordlicht']);
    expect(rows).toContainEqual(['Property scope', 'all (including future ones)']);
    expect(rows).toContainEqual(['From', '2025-01-01']);
    expect(rows).toContainEqual(['Export time (UTC)', '2026-11-22T08:00:00Z']);
  });
});

describe("the export's errors in German", () => {
  it('an --out that is a file', async () => {
    setLanguage('de');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-de-'));
    const file = path.join(dir, 'x');
    await writeFile(file, '');
    const e = await checkOutDir(file, {}, []).catch((x: unknown) => x as { message: string; hint: string });
    expect(e).toMatchObject({
      code: 'EXPORT_OUT_NOT_A_FOLDER',
      message: `--out ${file} ist eine Datei, kein Ordner.`,
      hint: 'Wählen Sie für --out einen Ordner, in den Sie schreiben dürfen (er wird angelegt, falls er fehlt).',
    });
  });

  it('a --compare folder without an export', async () => {
    setLanguage('de');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'md-de-'));
    const e = (await loadComparisonFolder(dir, { tenant_id: 't', tenant_name: 'T', client_id: 'c', granted_scopes: [], property_scope: 'all' }).catch(
      (x: unknown) => x,
    )) as { message: string; hint: string };
    expect(e).toMatchObject({
      code: 'EXPORT_COMPARE_INVALID',
      message: `--compare ${dir}: Dort liegt kein meterdata-Export (keine lesbare meterdata-manifest.json).`,
    });
    expect(await findEnglish(`${e.message} ${e.hint}`)).toEqual([]);
  });

  it('an export stopped part-way: what is missing and how to continue', async () => {
    setLanguage('de');
    const s = await setup();
    const e = (await runExport({ api: fakeApi(dataset(), { failAt: 2 }).api, ...s, reporter: reporter(), toolVersion: 't', now: () => T0 }).catch(
      (x: unknown) => x,
    )) as { message: string; hint: string };
    expect(e.message).toMatch(
      /Der Export endete nach 2 von 3 Liegenschaften \(nicht fertig: „Haus 3“\); in .* wurde keine Datei unter ihrem endgültigen Namen abgelegt\.$/,
    );
    expect(e.hint).toMatch(/Führen Sie denselben Befehl erneut aus, um fortzusetzen: Bereits Abgerufenes bleibt erhalten\.$/);
    expect(nameList(['A', 'B', 'C', 'D', 'E', 'F', 'G'])).toBe('„A“, „B“, „C“, „D“, „E“ und 2 weitere');
  });
});
