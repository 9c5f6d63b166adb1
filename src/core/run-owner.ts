// This process's mark on the locks it takes, the same in each of its threads. A lock named its holder
// by pid, host name and start time; the host name changes under a running export when a laptop joins
// another network (macOS, DHCP-named Linux), and each thread computes the start time anew. Either
// made a run take its own lock for another's at its commit (EXPORT_OUT_TAKEN_OVER) and leave every
// lock behind (round 20). A worker thread gets a copy of process.env at its start, so the mark set
// here before any worker starts is the one every thread reads; a child process (another pid) makes
// its own rather than inherit its parent's.
import { randomBytes } from 'node:crypto';

const KEY = 'METERDATA_LOCK_OWNER';

/** `<pid>.<random>`: set once per process, read by its threads. */
export function runOwner(): string {
  const seen = process.env[KEY];
  if (seen?.startsWith(`${process.pid}.`)) return seen;
  const mine = `${process.pid}.${randomBytes(8).toString('hex')}`;
  process.env[KEY] = mine;
  return mine;
}
