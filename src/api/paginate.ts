// Walking a cursor-paginated list to its end, bounded: every page must bring new items, so
// a server that loops (empty pages, repeated items or cursors, no end) stops with exit 5
// naming the endpoint, before anything repeated is handed on.
import { ServiceUnavailableError, type ErrorCode } from '../core/errors.js';
import { checkSubject } from './answers.js';
import type { Schema } from './schema.js';
import * as S from './schemas.js';
import { t } from './texts.js';

/** The page size the contract allows at most: fewest requests for a full walk. */
export const PAGE_LIMIT = 200;

export type FetchPage = (path: string, schema: Schema) => Promise<unknown>;

/** A listing that breaks the contract's pagination: exit 5 naming the endpoint. */
function broken(endpoint: string, code: ErrorCode, message: string, pages: number): ServiceUnavailableError {
  return new ServiceUnavailableError(message, { code, hint: t.paginationHint, details: { endpoint, pages } });
}

/** A listing that would never end. */
const endless = (endpoint: string, code: ErrorCode, what: string, pages: number) => broken(endpoint, code, t.endless({ endpoint, what, pages }), pages);

/**
 * Follows next_cursor to the end, one page ahead of nobody: the next page is fetched when
 * the caller gets there. An empty page that names a next one, an item listed twice (a cycle
 * under fresh cursors), a cursor seen before, or more than maxPages pages stop it.
 */
export async function* paginate<T>(
  fetchPage: FetchPage,
  endpoint: string,
  path: string,
  item: Schema,
  rememberItem: (x: T) => void,
  maxPages: number,
): AsyncGenerator<T> {
  const cursors = new Set<string>();
  const listed = new Map<string, number>(); // id → the page it was first listed on
  let cursor: string | null = null;
  let pages = 0;
  const sep = path.includes('?') ? '&' : '?';
  for (;;) {
    const query = `${sep}limit=${PAGE_LIMIT}${cursor === null ? '' : `&page_cursor=${encodeURIComponent(cursor)}`}`;
    const page = (await fetchPage(path + query, S.page(item))) as { data: T[]; next_cursor: string | null };
    pages++;
    for (const x of page.data) {
      const itemId = (x as { id?: unknown }).id;
      if (typeof itemId !== 'string') continue;
      // UUIDs compare case-insensitively: a meter listed again in capitals would be billed twice
      const key = itemId.toLowerCase();
      const first = listed.get(key);
      // a loop only where an earlier page comes back and names a next one; within a page, or on the last, a list that
      // names an item twice (round 34a, 36a: "instead of looping forever")
      if (first === pages || (first !== undefined && page.next_cursor === null))
        throw broken(endpoint, 'API_PAGE_REPEATS', t.listedTwice({ endpoint, id: itemId }), pages);
      if (first !== undefined) throw endless(endpoint, 'API_PAGE_REPEATS', t.listedAgain({ id: itemId, page: pages }), pages);
      listed.set(key, pages);
    }
    for (const x of page.data) rememberItem(x);
    yield* page.data;
    if (page.next_cursor === null) return;
    if (page.data.length === 0) throw endless(endpoint, 'API_EMPTY_PAGE', t.emptyPage({ page: pages }), pages);
    if (cursors.has(page.next_cursor)) throw endless(endpoint, 'API_CURSOR_LOOP', t.cursorTwice, pages);
    if (pages >= maxPages) throw endless(endpoint, 'API_TOO_MANY_PAGES', t.tooManyPages({ max: maxPages, items: maxPages * PAGE_LIMIT }), pages);
    cursors.add(page.next_cursor);
    cursor = page.next_cursor;
  }
}

/** A list asked for one Property holds only its items: another Property's unit or meter would be billed under this one. */
export function ownedBy(endpoint: string, pid: string, x: { property_id: string }): void {
  checkSubject(endpoint, 'Property', 'property_id', pid, x.property_id);
}
