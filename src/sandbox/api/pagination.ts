// Opaque cursor pagination. A cursor names an offset into one particular list (endpoint and
// filters), so a cursor from another list or a tampered one is rejected with 400.
import { hash32 } from '../data/prng.js';
import { badRequest } from './problem.js';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 200;

export interface PageRequest {
  offset: number;
  limit: number;
  listKey: string;
}

export function parseLimit(q: URLSearchParams): number {
  const raw = q.get('limit');
  if (raw === null) return DEFAULT_LIMIT;
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MAX_LIMIT)) throw badRequest(`Query parameter 'limit' must be an integer from 1 to ${MAX_LIMIT}; got '${raw}'.`);
  return n;
}

function encode(offset: number, listKey: string): string {
  const tag = hash32(`${listKey}|${offset}`).toString(36);
  return Buffer.from(`c1.${offset}.${tag}`).toString('base64url');
}

/** Reads limit and page_cursor for the list identified by listKey (endpoint + filters). */
export function pageRequest(q: URLSearchParams, listKey: string): PageRequest {
  const limit = parseLimit(q);
  const raw = q.get('page_cursor');
  if (raw === null) return { offset: 0, limit, listKey };
  const m = /^c1\.(\d{1,9})\.([0-9a-z]+)$/.exec(Buffer.from(raw, 'base64url').toString('latin1'));
  const offset = m ? Number(m[1]) : NaN;
  if (!m || encode(offset, listKey) !== raw) {
    throw badRequest(
      `Query parameter 'page_cursor' is not a cursor of this list; omit it to start at the first page, or pass next_cursor/prev_cursor of a previous response unchanged.`,
    );
  }
  return { offset, limit, listKey };
}

/** The envelope for items [offset, offset+limit) of a list of `total` items. */
export function envelope<T>(p: PageRequest, total: number, data: T[]): { data: T[]; next_cursor: string | null; prev_cursor: string | null } {
  const next = p.offset + p.limit < total ? encode(p.offset + p.limit, p.listKey) : null;
  const prev = p.offset > 0 ? encode(Math.max(0, p.offset - p.limit), p.listKey) : null;
  return { data, next_cursor: next, prev_cursor: prev };
}
