// A Property's answers as the journal stores them: JSON.stringify of the whole, gzip'd. The
// units' JSON may come made already, unit by unit as the answers came (pipeline/stream.ts), so that
// the large Properties of many profiles ending together do not serialise all their units at
// once; then the pieces go to gzip as they are, never joined into one string.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';
import type { PropertyAnswers } from '../../api/walk.js';

const gzipAsync = promisify(gzip);

/** JSON.stringify(answers), its units taken from `unitsJson` where it holds each of them. */
export function answersJson(answers: PropertyAnswers, unitsJson?: readonly string[]): string {
  return whole(answers, unitsJson) ? [...jsonParts(answers, unitsJson, false)].join('') : JSON.stringify(answers);
}

/**
 * The journal file's bytes: gzip (level 1, on libuv's pool: in the portfolio, 16 walks share
 * one thread) of answersJson. `unitsJson` is handed over: its pieces go to gzip a megabyte at
 * a time and are let go as they go. Joined first, they were the Property's whole JSON twice
 * more on the heap beside the pieces (3 times what JSON.stringify of the answers takes).
 */
export async function gzipAnswers(answers: PropertyAnswers, unitsJson?: string[]): Promise<Buffer> {
  if (!whole(answers, unitsJson)) return gzipAsync(JSON.stringify(answers), { level: 1 });
  const out: Buffer[] = [];
  await pipeline(Readable.from(jsonParts(answers, unitsJson, true)), createGzip({ level: 1 }), async (gz: AsyncIterable<Buffer>) => {
    for await (const chunk of gz) out.push(chunk);
  });
  return Buffer.concat(out);
}

/** Whether `unitsJson` holds each unit's JSON (no hole: every unit came through the stream; none taken by an earlier save). */
function whole(answers: PropertyAnswers, unitsJson: readonly string[] | undefined): unitsJson is string[] {
  if (!unitsJson || unitsJson.length !== answers.units.length) return false;
  for (let k = 0; k < unitsJson.length; k++) if (typeof unitsJson[k] !== 'string' || unitsJson[k] === '') return false;
  return true;
}

const PART = 1 << 20;

/** answersJson in pieces of about PART characters; `release`: each unit's JSON is dropped from `unitsJson` once taken. */
function* jsonParts(answers: PropertyAnswers, unitsJson: string[], release: boolean): Generator<string> {
  let batch: string[] = [];
  let size = 0;
  const take = (text: string) => {
    batch.push(text);
    size += text.length;
  };
  const full = () => size >= PART;
  const flush = () => {
    const text = batch.join('');
    batch = [];
    size = 0;
    return text;
  };
  take('{');
  let first = true;
  for (const [key, value] of Object.entries(answers)) {
    if (value === undefined) continue;
    take(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (key !== 'units') {
      take(JSON.stringify(value));
      continue;
    }
    take('[');
    for (let k = 0; k < unitsJson.length; k++) {
      if (k > 0) take(',');
      take(unitsJson[k]!);
      if (release) unitsJson[k] = '';
      if (full()) yield flush();
    }
    take(']');
  }
  take('}');
  yield flush();
}
