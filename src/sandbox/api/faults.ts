// Fault injection for the /v1 routes: answers 429/500/503, slow answers, dropped connections and
// truncated bodies, at a seeded rate or at given request numbers (1-based, counted per handler).
import { UsageError } from '../../core/errors.js';
import { mulberry32 } from '../data/prng.js';
import { setupTexts as t } from '../texts-setup.js';

export type FaultKind = '429' | '500' | '503' | 'slow' | 'drop' | 'truncate';
const KINDS: FaultKind[] = ['429', '500', '503', 'slow', 'drop', 'truncate'];

export interface FaultRule {
  kind: FaultKind;
  /** Probability per request, 0..1. */
  rate?: number;
  /** Request numbers (1-based) that get this fault. */
  at?: number[];
  /** Delay of a slow answer. */
  ms?: number;
}

export interface FaultPlan {
  rules: FaultRule[];
  /** Seed of the rate PRNG; the same seed and request order give the same faults. */
  seed?: number;
}

/** Parses --fault specs such as "429:0.05", "500@12,13", "slow:0.1:2000", "slow@3:1500", "drop:0.05". */
export function parseFaultSpecs(specs: string[], seed = 1): FaultPlan {
  return { seed, rules: specs.map(parseOne) };
}

function parseOne(spec: string): FaultRule {
  const bad = (why: string) => new UsageError(t.badFault({ spec, why }), t.faultFormat);
  const m = /^([a-z0-9]+)(?:(@)([0-9,]+)|:([0-9.]+))(?::([0-9]+))?$/.exec(spec.trim());
  if (!m) throw bad(t.faultForm);
  const kind = m[1] as FaultKind;
  if (!KINDS.includes(kind)) throw bad(t.faultKind({ kind: m[1]! }));
  const rule: FaultRule = { kind };
  if (m[2]) {
    const nums = m[3]!.split(',').map(Number);
    if (nums.some((n) => !Number.isInteger(n) || n < 1)) throw bad(t.faultNumbers);
    rule.at = nums;
  } else {
    const rate = Number(m[4]);
    if (!(rate >= 0 && rate <= 1)) throw bad(t.faultRate);
    rule.rate = rate;
  }
  if (m[5] !== undefined) {
    if (kind !== 'slow') throw bad(t.faultDelay);
    rule.ms = Number(m[5]);
  } else if (kind === 'slow') rule.ms = 2000;
  return rule;
}

export class FaultInjector {
  private readonly random: () => number;
  constructor(private readonly plan: FaultPlan | undefined) {
    this.random = mulberry32(plan?.seed ?? 1);
  }

  /** The fault for request number n, if any; the first matching rule wins. */
  pick(n: number): FaultRule | undefined {
    let hit: FaultRule | undefined;
    for (const r of this.plan?.rules ?? []) {
      // Draw for every rate rule on every request, so one rule's hits do not shift another's.
      const drawn = r.rate !== undefined && this.random() < r.rate;
      if (!hit && (drawn || r.at?.includes(n))) hit = r;
    }
    return hit;
  }
}
