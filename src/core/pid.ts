import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';

/** Whether a process with this id runs on this machine (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Where this process's pid means this process: the boot (its id, else the minute it booted) and the pid namespace
 * (Linux), else the machine's name and boot minute (no pid namespaces there). A process named by a pid of another pid
 * space is never judged by its pid here (round 59 U1: two containers sharing a folder and a hostname, each in its own
 * pid namespace). On Linux without the namespace's link (no /proc) the pid space cannot be told: one of this process's
 * own, so no other process judges its pids by ours (round 60 V1: the name and boot minute are the same in every
 * namespace). `ProcSubset=pid` hides the boot id but not the link: the boot minute stands in (round 61 W1).
 */
export function pidSpace(platform: NodeJS.Platform = process.platform, read = { readFileSync, readlinkSync }): string {
  if (platform !== 'linux') return `${os.hostname()} ${Math.round(BOOT_MS / 60_000)}`;
  const quiet = (f: () => string): string | undefined => {
    try {
      return f();
    } catch {
      return undefined;
    }
  };
  const ns = quiet(() => read.readlinkSync('/proc/self/ns/pid'));
  if (ns === undefined) return `unknown ${randomBytes(8).toString('hex')}`;
  // without the boot id, the boot time is compared within seconds (BOOTED, change-marker.ts): a minute's rounding would
  // split one boot at its edge
  // and the machine's id beside it, hashed (machine-id(5): not to be shown as it is): two machines of one name booted
  // within seconds, each in its init pid namespace (whose link is the same on every machine), are not one pid space
  // (round 62 X5); where /etc/machine-id is missing too, '-'
  const boot = quiet(() => read.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()) ?? `${BOOTED} ${machine(read) ?? '-'}`;
  return `${boot} ${ns}`;
}

function machine(read: { readFileSync: typeof readFileSync }): string | undefined {
  try {
    const id = read.readFileSync('/etc/machine-id', 'utf8').trim();
    return id === '' ? undefined : createHash('sha256').update(`meterdata pid space ${id}`).digest('hex').slice(0, 16);
  } catch {
    return undefined;
  }
}

/** When this machine booted, ms since the epoch (as this process reads it: seconds apart between processes). */
export const BOOT_MS = Date.now() - os.uptime() * 1000;
/** The pid space's boot part where the boot id is hidden: the boot time then goes beside it (BOOT_MS). */
export const BOOTED = 'booted';

export const PID_SPACE = pidSpace();
/** PID_SPACE, short, for the claims of the refresh tokens' list (spent-tokens.ts): ten thousand of them are kept. */
export const PID_SPACE_TAG = createHash('sha256').update(PID_SPACE).digest('hex').slice(0, 16);
