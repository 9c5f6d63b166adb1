// Preloaded into a measured process with --import: on exit it writes
// process.resourceUsage() (maxRSS in KiB = the kernel's peak resident set, like VmHWM)
// to the file named by MD_BENCH_RUSAGE, plus the process.memoryUsage() sample (every
// 500 ms) taken at the highest RSS seen, to tell V8 heap from buffers and native memory.
// Every thread (worker threads inherit the --import) also appends one line to
// <file>.threads when it ends: its own CPU time, what it ran (the isolate request's
// function name; null for the main thread) and when it started and ended (ms since the
// epoch), so the bench can split the CPU time into phases (walk, workbooks).
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
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
  process.on('exit', () => writeFileSync(file, JSON.stringify({ ...process.resourceUsage(), memoryAtPeak: atPeak, nativeThreads: nativeThreads() })));
}

/**
 * Linux: CPU seconds of the threads still alive at exit, summed by the kernel's thread name
 * (`V8 DefaultWorke` = V8's platform workers: the collector's helpers, background compiling;
 * `libuv-worker` = libuv's pool: file I/O, zlib, hashing). Threads that ended before (the
 * export's worker threads) are not counted here; they report their own CPU time above.
 */
function nativeThreads() {
  try {
    const byName = {};
    for (const tid of readdirSync('/proc/self/task')) {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // fields after the parenthesised name: utime and stime are the 12th and 13th, in ticks of 10 ms
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName[name] = +((byName[name] ?? 0) + (Number(f[11]) + Number(f[12])) / 100).toFixed(2);
    }
    return byName;
  } catch {
    return null;
  }
}
