// Future-contract mode: answers as a later additive contract version might send them, with
// unknown fields on every resource and unknown enum values in a deterministic subset, so
// clients can prove they tolerate both (contract "Versioning" rule 4).
import { hash32 } from '../data/prng.js';

const pick = (key: string, mod: number): boolean => hash32(`future|${key}`) % mod === 0;

/** The whole answer: every resource as below, plus an unknown field on the top-level object. */
export function futurise(body: unknown): unknown {
  const out = walk(body);
  if (out !== null && typeof out === 'object' && !Array.isArray(out)) (out as Record<string, unknown>).x_contract_version = '1.1.0';
  return out;
}

function walk(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(walk);
  if (body === null || typeof body !== 'object') return body;
  const o: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) o[k] = walk(v);
  const id = String(o.id ?? o.measuring_point_id ?? o.device_id ?? (o.at !== undefined ? `${o.at}|${String(o.value)}` : ''));
  if (id === '') return o;
  o.x_revision = 2;
  o.labels = { source: 'future-contract' };
  if (typeof o.metric === 'string' && pick(`metric|${id}`, 9)) o.metric = 'heat_pump_power';
  if (typeof o.unit_type === 'string' && pick(`ut|${id}`, 7)) o.unit_type = 'parking';
  if (typeof o.baseline_origin === 'string' && pick(`bo|${id}`, 4)) o.baseline_origin = 'estimated_by_ai';
  if (o.at !== undefined && typeof o.status === 'string' && pick(`st|${id}`, 11)) o.status = 'estimated';
  return o;
}
