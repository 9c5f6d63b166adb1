// Preloaded into a measured process with --import: on exit it writes
// process.resourceUsage() (maxRSS in KiB = the kernel's peak resident set, like VmHWM)
// to the file named by MD_BENCH_RUSAGE, plus the process.memoryUsage() sample (every
// 500 ms) taken at the highest RSS seen, to tell V8 heap from buffers and native memory.
// Every thread (worker threads inherit the --import) also appends one line to
// <file>.threads when it ends: its own CPU time, what it ran (the isolate request's
// function name; null for the main thread) and when it started and ended (ms since the
// epoch), so the bench can split the CPU time into phases (walk, workbooks).
import { appendFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { isMainThread, workerData } from 'node:worker_threads';

const file = process.env.MD_BENCH_RUSAGE;
if (file) {
  // a worker's timeOrigin is the process's: its start is now
  const startedAt = performance.timeOrigin + performance.now();
  const ran = isMainThread ? null : (workerData?.name ?? 'worker');
  process.on('exit', () => {
    const cpu = process.threadCpuUsage();
    appendFileSync(
      `${file}.threads`,
      `${JSON.stringify({ ran, startedAt, endedAt: performance.timeOrigin + performance.now(), cpuMicros: cpu.user + cpu.system })}\n`,
    );
  });
}
// Only the main thread reports the process's figures (maxRSS is the process's).
if (file && isMainThread) {
  let atPeak = process.memoryUsage();
  setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > atPeak.rss) atPeak = m;
  }, 500).unref();
  process.on('exit', () => writeFileSync(file, JSON.stringify({ ...process.resourceUsage(), memoryAtPeak: atPeak })));
}
