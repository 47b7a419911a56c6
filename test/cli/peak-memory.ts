/**
 * Loaded with `--import` into a docex child process by the tests: when the process exits it writes its
 * peak resident memory (all threads, from getrusage) to stderr as `[peak-rss-kb N]`.
 */
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\n[peak-rss-kb ${process.resourceUsage().maxRSS}]\n`);
});
