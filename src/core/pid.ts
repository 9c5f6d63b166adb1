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
 * Where this process's pid means this process: the boot and the pid namespace (Linux), else the machine's name and the
 * minute it booted. A process named by a pid of another pid space is never judged by its pid here (round 59 U1: two
 * containers sharing a folder and a hostname, each in its own pid namespace).
 */
export const PID_SPACE = ((): string => {
  try {
    return `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()} ${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return `${os.hostname()} ${Math.round((Date.now() - os.uptime() * 1000) / 60_000)}`;
  }
})();
