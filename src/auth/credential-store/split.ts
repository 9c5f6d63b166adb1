// The Windows Credential Manager keeps at most 2560 bytes per credential
// (CRED_MAX_CREDENTIAL_BLOB_SIZE), and the keyring module stores text as UTF-16: 1280
// characters. A sign-in record with a DPoP key and a long JWT access token is longer,
// and refusing it at login would lose the refresh token just received. So a long record
// is stored in parts: the parts first (under "<account>#<id>.<i>", id = the record's
// hash), then a head under the account that names them; the previous record's parts are
// deleted only after the new head is in place. A reader that meets a head whose parts
// were just replaced by another process reads the head once more.
import { createHash } from 'node:crypto';

/** One keychain entry per account, as the keyring module offers them. */
export interface Slots {
  get(account: string): Promise<string | null>;
  set(account: string, text: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

export const WINDOWS_MAX_CHARS = 1280;
const PART_CHARS = 1200;
const HEAD = 'meterdata-parts:1:';

interface Head {
  id: string;
  count: number;
}

function parseHead(text: string | null): Head | null {
  const m = text === null ? null : /^meterdata-parts:1:([0-9a-f]{16}):(\d{1,4})$/.exec(text);
  return m ? { id: m[1]!, count: Number(m[2]) } : null;
}

const idOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
const partName = (account: string, head: Head, i: number) => `${account}#${head.id}.${i}`;

async function deleteParts(slots: Slots, account: string, head: Head | null): Promise<void> {
  if (head) for (let i = 0; i < head.count; i++) await slots.delete(partName(account, head, i));
}

/** Stores `text` under `account`, in parts when it is longer than `maxChars`. */
export async function writeSplit(slots: Slots, account: string, text: string, maxChars: number): Promise<void> {
  const previous = parseHead(await slots.get(account));
  let head: Head | null = null;
  if (text.length <= maxChars) await slots.set(account, text);
  else {
    head = { id: idOf(text), count: Math.ceil(text.length / PART_CHARS) };
    for (let i = 0; i < head.count; i++) await slots.set(partName(account, head, i), text.slice(i * PART_CHARS, (i + 1) * PART_CHARS));
    await slots.set(account, `${HEAD}${head.id}:${head.count}`);
  }
  if (previous && previous.id !== head?.id) await deleteParts(slots, account, previous);
}

/** The text under `account` (joined from its parts), null when there is none, '' when its parts are damaged. */
export async function readSplit(slots: Slots, account: string): Promise<string | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const text = await slots.get(account);
    const head = parseHead(text);
    if (!head) return text;
    const parts: (string | null)[] = [];
    for (let i = 0; i < head.count; i++) parts.push(await slots.get(partName(account, head, i)));
    const joined = parts.every((p) => p !== null) ? parts.join('') : null;
    if (joined !== null && idOf(joined) === head.id) return joined;
  }
  return '';
}

export async function removeSplit(slots: Slots, account: string): Promise<boolean> {
  await deleteParts(slots, account, parseHead(await slots.get(account)));
  return slots.delete(account);
}
