// A short, stable part of a server id for a file or folder name: two things of the same name
// (two flats "EG links" in two entrances) get names of their own, and the same thing the same name.
import { createHash } from 'node:crypto';

/** The first 8 hex digits of the id's SHA-256 ("0efbc34d"). */
export function idTag(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 8);
}
