// The sandbox in its own process, so the export being measured does not share its event
// loop. Started with fork(); options arrive as JSON in argv[2]. It answers IPC messages:
//   {op:'stats'}            -> the request log plus the arrival time of every /v1 request (also per token)
//   {op:'disconnect', sid}  -> the landlord disconnects a connection
//   {op:'connections'}      -> the connection records
//   {op:'advanceClock', ms} -> moves the sandbox clock
// Arrival times come from node:diagnostics_channel (http.server.request.start), so the
// sandbox code is measured as it is, without hooks of our own inside it.
import { subscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../../dist/sandbox/server.js';

const opts = JSON.parse(process.argv[2] ?? '{}');
/** performance.timeOrigin-based wall times (ms since epoch) of /v1 arrivals. */
let arrivals = [];
/** The same per bearer token, i.e. per connection (the portfolio figure). */
let byToken = new Map();
subscribe('http.server.request.start', ({ request }) => {
  if (!request.url?.startsWith('/v1')) return;
  const t = performance.timeOrigin + performance.now();
  arrivals.push(t);
  const auth = request.headers.authorization ?? '';
  if (!byToken.has(auth)) byToken.set(auth, []);
  byToken.get(auth).push(t);
});

const sandbox = await startSandbox({ port: 0, ...opts });

process.on('message', async (m) => {
  const reply = (body) => process.send({ id: m.id, ...body });
  try {
    if (m.op === 'stats') {
      reply({ log: sandbox.log.toJSON(), arrivals, arrivals_by_token: [...byToken.values()] });
      if (m.reset) {
        arrivals = [];
        byToken = new Map();
      }
    } else if (m.op === 'disconnect') reply({ ok: await sandbox.admin.disconnect(m.sid) });
    else if (m.op === 'connections') reply({ connections: sandbox.admin.connections() });
    else if (m.op === 'advanceClock') reply({ now: sandbox.admin.advanceClock(m.ms).toISOString() });
    else reply({ error: `unknown op ${m.op}` });
  } catch (e) {
    reply({ error: String(e?.stack ?? e) });
  }
});
process.on('disconnect', () => void sandbox.close().then(() => process.exit(0)));
process.send({ ready: true, url: sandbox.url, apiBase: sandbox.apiBase });
