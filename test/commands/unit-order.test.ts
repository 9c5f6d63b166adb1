// One order of a Property's units in every file and in browse: residential units by
// name (naturally: "WE 2" before "WE 10"), then commercial, common areas, technical.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client.js';
import { openConnection } from '../../src/auth/connection.js';
import { billProperty, compareNames, compareUnits, flagText } from '../../src/billing/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { createBrowseData } from '../../src/tui/data.js';
import { propertyScreen } from '../../src/tui/screens-list.js';
import { runCli } from '../helpers/run-cli.js';
import { signedIn } from '../helpers/signed-in.js';

describe('the unit order', () => {
  it('compares names naturally and byte-stably', () => {
    const names = ['WE 10', 'WE 2', 'WE 1', 'Laden', 'WE 02', 'we 3', 'WE 2a', 'Whg. 9', 'WE 100000000000000000001', 'WE 99999999999999999999'];
    expect([...names].sort(compareNames)).toEqual([
      'Laden',
      'WE 1',
      'WE 02',
      'WE 2',
      'WE 2a',
      'WE 10',
      'WE 99999999999999999999',
      'WE 100000000000000000001',
      'Whg. 9',
      'we 3',
    ]);
  });

  it('puts residential units first, then commercial, common areas, technical, an unknown type last', () => {
    const u = (name: string, unit_type: string, id = name) => ({ id, name, unit_type });
    const units = [
      u('Keller', 'technical'),
      u('Treppenhaus', 'traffic'),
      u('Laden 1', 'commercial'),
      u('X', 'garden'),
      u('WE 10', 'residential'),
      u('WE 2', 'residential'),
      u('WE 2', 'residential', 'A'),
    ];
    expect(units.sort(compareUnits).map((x) => `${x.name}/${x.id}`)).toEqual([
      'WE 2/A',
      'WE 2/WE 2',
      'WE 10/WE 10',
      'Laden 1/Laden 1',
      'Treppenhaus/Treppenhaus',
      'Keller/Keller',
      'X/X',
    ]);
  });
});

describe('billing.csv and browse list a Property’s units in the same order (sandbox data)', () => {
  let sandbox: Sandbox;
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    ({ sandbox, home, env } = await signedIn({ units: 40, homePrefix: 'md-order-' }));
  });
  afterAll(async () => sandbox?.close());

  it('every Property: the units of billing.csv and of browse in one order, the expected one', async () => {
    const out = path.join(home, 'out');
    const r = await runCli(['export', '--year', '2025', '--out', out, '--format', 'csv', '--quiet'], { env, cwd: home });
    expect(r.code, r.stderr).toBe(0);
    const lines = (await readFile(path.join(out, 'billing.csv'), 'utf8')).trim().split('\r\n').slice(1);
    const csvOrder = new Map<string, string[]>();
    for (const l of lines) {
      const [propertyId, , unitId] = l.split(',');
      const list = csvOrder.get(propertyId!) ?? [];
      if (list.at(-1) !== unitId) list.push(unitId!);
      csvOrder.set(propertyId!, list);
    }

    const signal = new AbortController().signal;
    const conn = await openConnection({ env, signal });
    const api = createApiClient({ baseUrl: conn.baseUrl, credentials: conn.credentials, signal });
    try {
      const data = createBrowseData({ api, billProperty, flagText });
      const range = { from: '2025-01-01', to: '2025-12-31' };
      let mixed = 0;
      for (const p of await data.listProperties()) {
        const b = await data.loadProperty(p, range);
        const shown = propertyScreen(b, 120, () => '')
          .rows.filter((x) => x.key.startsWith('u:'))
          .map((x) => x.key.slice(2));
        const billed = new Set(b.bill.billing.map((x) => x.usage_unit_id));
        // billing.csv has rows only for units with billable points; they come in browse's order.
        expect(csvOrder.get(p.id) ?? [], p.name).toEqual(shown.filter((id) => billed.has(id)));
        const expected = b.units
          .map((u) => u.unit)
          .sort(compareUnits)
          .map((u) => u.id);
        expect(shown).toEqual(expected);
        if (new Set(b.units.map((u) => u.unit.unit_type)).size > 1) mixed++;
      }
      // The sandbox data mixes unit types, so the type rank is really exercised.
      expect(mixed).toBeGreaterThan(0);
    } finally {
      await api.close();
    }
  });
});
