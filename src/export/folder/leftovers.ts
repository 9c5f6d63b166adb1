// The names only meterdata's temporary files in an out folder have: what the next run tidies as an earlier run's
// leftover (AtomicOutput.prepare), never a file of a person's or another program's.
import { processAlive } from '../../core/pid.js';
import { runOwner } from '../../core/run-owner.js';

/**
 * The PDF writer's own temporary file behind one of ours (src/uvi/letter/write.ts:
 * "..letter-….pdf.partial.<pid>.<ms>.<random>.tmp"), which a kill leaves as well. Narrow: a
 * hidden name of a hidden name, then ".partial." and the writer's three parts (digits, digits,
 * base 36) and ".tmp"; no file of a person's or another program's is named so by chance.
 */
const PDF_TEMPORARY = /^\.\..+\.partial\.\d+\.\d+\.[a-z0-9]*\.tmp$/;

/**
 * The folder lock's record written aside before it is linked into place (locks.ts takeLock:
 * ".meterdata-lock.<pid>.<8 hex>.tmp"), which a kill between the two leaves. Only a dead process's:
 * a live one may be taking the lock this moment (it is then told busy and removes its own).
 */
// `.meterdata-lock.<pid>.<mark>.<hex>.tmp` (locks.ts takeLock; `<mark>` absent in older versions' names)
const LOCK_TEMPORARY = /^\.meterdata-lock\.((\d+)(?:\.[0-9a-f]{16})?)\.[0-9a-f]{8}\.tmp$/;

/** A name only meterdata's temporary files in an out folder have: removed as an earlier run's leftover. */
export function isLeftover(name: string): boolean {
  const lock = LOCK_TEMPORARY.exec(name);
  // another pid's where it no longer runs; this pid's unless it carries this process's mark (a container's earlier pid 1 wrote it)
  if (lock) return Number(lock[2]) === process.pid ? lock[1] !== runOwner() : !processAlive(Number(lock[2]));
  return (name.startsWith('.') && name.endsWith('.partial')) || PDF_TEMPORARY.test(name);
}
