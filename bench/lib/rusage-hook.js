// Preloaded into a measured process with --import: on exit it writes
// process.resourceUsage() (maxRSS in KiB = the kernel's peak resident set, like VmHWM)
// to the file named by MD_BENCH_RUSAGE.
import { writeFileSync } from 'node:fs';

const file = process.env.MD_BENCH_RUSAGE;
if (file) process.on('exit', () => writeFileSync(file, JSON.stringify(process.resourceUsage())));
