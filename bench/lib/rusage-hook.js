// Preloaded into a measured process with --import: on exit it writes
// process.resourceUsage() (maxRSS in KiB = the kernel's peak resident set, like VmHWM)
// to the file named by MD_BENCH_RUSAGE, plus the process.memoryUsage() sample (every
// 500 ms) taken at the highest RSS seen, to tell V8 heap from buffers and native memory.
import { writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.MD_BENCH_RUSAGE;
// Worker threads inherit the --import; only the main thread reports (maxRSS is the process's).
if (file && isMainThread) {
  let atPeak = process.memoryUsage();
  setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > atPeak.rss) atPeak = m;
  }, 500).unref();
  process.on('exit', () => writeFileSync(file, JSON.stringify({ ...process.resourceUsage(), memoryAtPeak: atPeak })));
}
