import type { IncomingMessage } from 'node:http';

/** Reads a small request body as text; stops reading past `limit` characters. */
export async function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<string> {
  let raw = '';
  for await (const chunk of req) {
    raw += chunk;
    if (raw.length > limit) throw new Error('request body too large');
  }
  return raw;
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams(await readBody(req));
}
