// The stop signal of collectProperty (an export that stopped at another Property) also stops
// the paging of the Property's unit and point lists: with PAGE_LIMIT 200, a Property of 2000
// units is 10 list requests, each started only when the walk asks for the next item.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/contracts.js';
import { PAGE_LIMIT } from '../../src/api/paginate.js';
import { collectProperty } from '../../src/api/walk.js';
import { api, building } from '../helpers/export-stream-fixtures.js';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The fixture's client, its unit list answered page by page (PAGE_LIMIT items, 5 ms each page), counting the pages asked for. */
function paged(n: number, onPage?: (page: number) => void) {
  const b = building(n, 77);
  const inner = api([b]);
  const pages = { n: 0 };
  const client: ApiClient = {
    ...inner,
    async *listUsageUnits() {
      const units = b.units.map((u) => u.unit);
      for (let at = 0; at < units.length; at += PAGE_LIMIT) {
        pages.n++;
        await wait(5);
        onPage?.(pages.n);
        yield* units.slice(at, at + PAGE_LIMIT);
      }
    },
  };
  return { b, client, pages };
}

describe('collectProperty stopped while its lists are paged', () => {
  it('asks for no further page once stop is aborted', async () => {
    const stop = new AbortController();
    const { b, client, pages } = paged(5 * PAGE_LIMIT, (p) => p === 1 && stop.abort(new Error('the export stopped')));
    await expect(collectProperty(client, b.property, { range: { from: '2025-01-01', to: '2025-12-31' }, metrics: [], stop: stop.signal })).rejects.toThrow(
      'the export stopped',
    );
    await wait(50);
    expect(pages.n).toBe(1);
  });

  it('asks for nothing when stop is aborted before the walk starts', async () => {
    const stop = new AbortController();
    stop.abort(new Error('the export stopped'));
    const { b, client, pages } = paged(3 * PAGE_LIMIT);
    await expect(collectProperty(client, b.property, { range: { from: '2025-01-01', to: '2025-12-31' }, metrics: [], stop: stop.signal })).rejects.toThrow(
      'the export stopped',
    );
    expect(pages.n).toBe(0);
  });

  it('without stop the whole list is walked (browse)', async () => {
    const { b, client, pages } = paged(2 * PAGE_LIMIT + 1);
    const got = await collectProperty(client, b.property, { range: { from: '2025-01-01', to: '2025-12-31' }, metrics: [] });
    expect([pages.n, got.units.length]).toEqual([3, 2 * PAGE_LIMIT + 1]);
  });
});
