// The worker side of LetterPool: draws each letter it is handed to its own file, one after
// another in the order given, and answers with the letter's id and what it drew (for the
// Property's combined PDF), or its error. After { stop: true } the letters not begun are
// skipped (answered as skipped, without a file).
import { parentPort, workerData } from 'node:worker_threads';
import { serializeError } from '../../../core/isolate.js';
import { letterFonts, writeLetter } from '../../../uvi/letter/index.js';
import type { LetterJob, LetterReply, LetterWorkerData } from './letter-pool.js';

const data = workerData as LetterWorkerData;
const port = parentPort!;
let stopped = false;
let chain = Promise.resolve();

port.on('message', (m: { stop: true } | (LetterJob & { id: number })) => {
  if ('stop' in m) {
    stopped = true;
    return;
  }
  chain = chain.then(async () => {
    const reply: LetterReply = { id: m.id };
    try {
      if (stopped) reply.skipped = true;
      else
        reply.drawn = await writeLetter(m.file, m.model, { fonts: await letterFonts(), createdAt: new Date(data.createdAt), title: m.title, lang: data.lang });
    } catch (e) {
      reply.error = serializeError(e);
    }
    port.postMessage(reply);
  });
});
