#!/usr/bin/env node
// Tiny launcher: the compiled CLI does everything, including choosing the exit code.
import { main } from '../dist/cli.js';

// `meterdata --help | head` closes the pipe early: that is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

process.exitCode = await main(process.argv.slice(2));
