// Two classes the adversarial review found (issue 10, sections 4 and 5), run on the built
// binary: exports that race for one --out folder (at several offsets, and after a kill -9
// of the owner), and a hostile server behind a proxy that rewrites the sandbox's answers
// (escape sequences and bidi overrides in names, an id that is not a UUID, an unknown
// field nested 20,000 levels deep).
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { assertBuilt, differences, FINAL, folder, FULL, MANIFEST, prng, report, runBin, signedIn } from '../helpers/faults.js';

const A = ['export', '--year', '2025', '--rate-limit', '3000'];
const B = ['export', '--year', '2024', '--format', 'csv', '--rate-limit', '3000'];
const RACES = FULL ? 10 : 4;
// C0 but newline, DEL, C1, bidi controls
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let home: string;
const clean: Record<'A' | 'B', Map<string, Buffer>> = { A: new Map(), B: new Map() };
let cleanMs = 0;

beforeAll(async () => {
  assertBuilt();
  ({ sandbox, env, home } = await signedIn({ units: 300, latencyMs: [20, 60], rateLimitPerMinute: 0 }));
  const a = await runBin([...A, '--out', path.join(home, 'clean-a')], env);
  expect(a.code, a.stderr).toBe(0);
  const b = await runBin([...B, '--out', path.join(home, 'clean-b')], env);
  expect(b.code, b.stderr).toBe(0);
  clean.A = await folder(path.join(home, 'clean-a'));
  clean.B = await folder(path.join(home, 'clean-b'));
  cleanMs = a.ms;
}, 120_000);
afterAll(async () => sandbox?.close());

const trace = (stderr: string) => /^\s+at /m.test(stderr) || /unexpected failure/.test(stderr);
const tail = (stderr: string) => stderr.trim().split('\n').slice(-2).join(' / ');

describe('exports racing for one --out folder', () => {
  it(
    `${RACES} races with other arguments, and a kill -9 of the owner: one export owns the folder, the other is refused with exit 2`,
    async () => {
      const random = prng(20261123);
      const lost: string[] = [];
      let passed = 0;
      const outcomes = { busy: 0, inUse: 0 };
      for (let i = 0; i < RACES; i++) {
        const out = path.join(home, `race-${i}`);
        const delay = Math.round(random() * cleanMs * 0.5);
        const first = runBin([...A, '--out', out], env);
        await new Promise((r) => setTimeout(r, delay));
        const [a, b] = await Promise.all([first, runBin([...B, '--out', out], env)]);
        const got = await folder(out);
        const refused = b.code === 2 && /is writing to|already holds an export made with other arguments/.test(b.stderr);
        if (/is writing to/.test(b.stderr)) outcomes.busy++;
        else if (refused) outcomes.inUse++;
        const problems = [
          a.code !== 0 && `A exit ${a.code}: ${tail(a.stderr)}`,
          !refused && `B exit ${b.code}: ${tail(b.stderr)}`,
          (trace(a.stderr) || trace(b.stderr)) && 'a stack trace was printed',
          differences(clean.A, got).length > 0 && `folder differs from A's clean run in [${differences(clean.A, got).join(', ')}]`,
        ].filter(Boolean);
        if (problems.length) lost.push(`race ${i} (B after ${delay} ms): ${problems.join(', ')}`);
        else passed++;
      }

      // The owner is killed: its lock names a dead process, so the other arguments take the
      // folder over (it holds only the dead run's hidden scratch files) and finish cleanly.
      // runs vary in length (the clean run was the binary's first, cold): a kill that came once the owner had committed
      // leaves its complete export, which B rightly refuses; a fresh owner is then killed earlier
      let at = Math.round(cleanMs * 0.5);
      let out = path.join(home, 'race-killed');
      let killed = await runBin([...A, '--out', out], env, { killAfterMs: at });
      for (let retry = 1; (await folder(out)).has(MANIFEST) && retry <= 4; retry++) {
        at = Math.round(at * 0.6);
        out = path.join(home, `race-killed-${retry}`);
        killed = await runBin([...A, '--out', out], env, { killAfterMs: at });
      }
      const b = await runBin([...B, '--out', out], env);
      const got = await folder(out);
      const problems = [
        killed.signal !== 'SIGKILL' && `A was not killed (${killed.code})`,
        b.code !== 0 && `B exit ${b.code}: ${tail(b.stderr)}`,
        differences(clean.B, got).length > 0 && `folder differs from B's clean run in [${differences(clean.B, got).join(', ')}]`,
      ].filter(Boolean);
      if (problems.length) lost.push(`after a kill -9 of the owner: ${problems.join(', ')}`);
      else passed++;

      report({
        scenario: `two exports into one --out (${outcomes.busy}× refused while the other wrote, ${outcomes.inUse}× refused after it finished; then a killed owner)`,
        trials: RACES + 1,
        passed,
        lost,
      });
      expect(lost).toEqual([]);
    },
    FULL ? 600_000 : 240_000,
  );
});

type Rewrite = (pathname: string, body: Record<string, unknown>) => string | null;

/** Forwards to the sandbox; `rewrite` may replace a JSON answer's text. */
async function hostileProxy(rewrite: Rewrite): Promise<{ close: () => void; base: string }> {
  const target = new URL(sandbox.url);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      let raw = '';
      answer.on('data', (c: Buffer) => (raw += c.toString()));
      answer.on('end', () => {
        const text = answer.statusCode === 200 ? rewrite(url.pathname, JSON.parse(raw) as Record<string, unknown>) : null;
        res.writeHead(answer.statusCode ?? 502, { 'content-type': String(answer.headers['content-type'] ?? 'application/json') });
        res.end(text ?? raw);
      });
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { close: () => server.close(), base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

const HOSTILE = '\u001b[2J\u001b]0;owned\u0007\r\nmeterdata: done \u202eSCV.exe\u009b';
const firstOf = (body: Record<string, unknown>) => (body.data as Record<string, unknown>[])[0]!;

const PLANS: { name: string; rewrite: Rewrite; exit: number; message: RegExp }[] = [
  {
    name: 'control characters in Property names',
    rewrite: (p, body) =>
      p === '/v1/properties'
        ? JSON.stringify({ ...body, data: (body.data as Record<string, unknown>[]).map((x) => ({ ...x, name: `${String(x.name)}${HOSTILE}` })) })
        : null,
    exit: 0,
    message: /\\u\{1b\}\[2J/,
  },
  {
    name: 'a usage unit id that is not a UUID',
    rewrite: (p, body) =>
      p === '/v1/usage-units' ? JSON.stringify({ ...body, data: [{ ...firstOf(body), id: '../../whoami?x=' }, ...(body.data as unknown[]).slice(1)] }) : null,
    exit: 5,
    message: /usage unit id that is not a UUID \("\.\.\/\.\.\/whoami\?x="\)/,
  },
  {
    name: 'an unknown field nested 20,000 levels deep',
    rewrite: (p, body) =>
      p === '/v1/properties'
        ? JSON.stringify({ ...body, data: [{ ...firstOf(body), future: 0 }] }).replace('"future":0', `"future":${'{"x":'.repeat(20_000)}1${'}'.repeat(20_000)}`)
        : null,
    exit: 5,
    message: /breaks the API contract: nests deeper than 64 levels/,
  },
];

describe('a hostile server', () => {
  it(`${PLANS.length} hostile answers: a clear exit, nothing escapes to the terminal, nothing half-written`, async () => {
    const token = (await runBin(['token'], env)).stdout.trim();
    const lost: string[] = [];
    let passed = 0;
    for (const [i, plan] of PLANS.entries()) {
      const proxy = await hostileProxy(plan.rewrite);
      const out = path.join(home, `hostile-${i}`);
      const r = await runBin([...A, '--out', out], { ...env, METERDATA_ACCESS_TOKEN: token, METERDATA_BASE_URL: proxy.base });
      proxy.close();
      const got = await folder(out);
      const left = [...got.keys()].filter((n) => n.endsWith('.partial') || (r.code !== 0 && FINAL.includes(n)));
      const problems = [
        r.code !== plan.exit && `exit ${r.code}, not ${plan.exit}: ${tail(r.stderr)}`,
        !plan.message.test(r.stderr) && `stderr lacks ${plan.message}: ${tail(r.stderr)}`,
        CONTROL.test(r.stderr + r.stdout) && 'a control character reached the terminal',
        trace(r.stderr) && 'a stack trace was printed',
        left.length > 0 && `left [${left.join(', ')}]`,
        r.code === 0 && !got.has(MANIFEST) && 'no manifest',
      ].filter(Boolean);
      if (problems.length) lost.push(`${plan.name}: ${problems.join(', ')}`);
      else passed++;
    }
    report({ scenario: `hostile answers (${PLANS.map((p) => p.name).join('; ')})`, trials: PLANS.length, passed, lost });
    expect(lost).toEqual([]);
  }, 180_000);
});
