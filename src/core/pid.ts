import { randomBytes } from 'node:crypto';
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
 * minute it booted (no pid namespaces there). A process named by a pid of another pid space is never judged by its pid
 * here (round 59 U1: two containers sharing a folder and a hostname, each in its own pid namespace). On Linux without a
 * readable /proc (`ProcSubset=pid`, none mounted) the pid space cannot be told: one of this process's own, so no other
 * process judges its pids by ours (round 60 V1: the name and boot minute are the same in every namespace).
 */
export function pidSpace(platform: NodeJS.Platform = process.platform, read = { readFileSync, readlinkSync }): string {
  try {
    return `${read.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()} ${read.readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    if (platform === 'linux') return `unknown ${randomBytes(8).toString('hex')}`;
    return `${os.hostname()} ${Math.round((Date.now() - os.uptime() * 1000) / 60_000)}`;
  }
}

export const PID_SPACE = pidSpace();
