import { describeError } from './file-errors.js';
import type { LineWriter } from './output.js';
import type { Progress } from './progress.js';
import { formatDuration } from './progress.js';
import type { FileWork } from './file-work.js';

/**
 * Ctrl-C during a batch: the first SIGINT stops starting files and lets those in flight finish (their
 * lines are written); the second abandons them (no line for them); a third exits at once. SIGTERM (a
 * service manager, a container runtime, `kill`) counts the same, so a stopped batch still writes its
 * summary and can be resumed.
 */
export class Interrupt {
  stopping = false;
  abandonedNow = false;
  readonly abandoned: Promise<void>;
  private abandon!: () => void;
  private count = 0;
  private readonly listener = (): void => this.signal();

  constructor(private readonly say: (text: string) => void) {
    this.abandoned = new Promise<void>((resolve) => (this.abandon = resolve));
  }

  install(): this {
    process.on('SIGINT', this.listener);
    process.on('SIGTERM', this.listener);
    return this;
  }

  uninstall(): void {
    process.off('SIGINT', this.listener);
    process.off('SIGTERM', this.listener);
  }

  /** What a SIGINT does (also called by tests). */
  signal(): void {
    this.count++;
    if (this.count === 1) {
      this.stopping = true;
      this.say(
        'docex: interrupted: no new file is started; waiting for the files in flight (Ctrl-C again to abandon them)',
      );
    } else if (this.count === 2) {
      this.abandonedNow = true;
      this.say('docex: interrupted again: abandoning the files in flight');
      this.abandon();
    } else {
      process.exit(130);
    }
  }
}

export interface BatchReport {
  /** Files whose line was written. */
  written: number;
  failed: number;
  /** Failures by error code. */
  failures: Map<string, number>;
  pages: number;
  /** Files never started because of an interruption. */
  notStarted: number;
  /** Files started but left without a line (second Ctrl-C). */
  abandoned: number;
  seconds: number;
}

/**
 * Runs `work` on every file, `concurrency` at a time, writing each file's line as it finishes (so, with
 * more than one in flight, in the order they finish). A file that fails gives an error line
 * `{file, error: {code, message}}`; it never stops the batch.
 */
export async function runBatch(options: {
  files: string[];
  concurrency: number;
  work: FileWork;
  out: LineWriter;
  progress: Progress;
  interrupt: Interrupt;
}): Promise<BatchReport> {
  const { files, work, out, progress, interrupt } = options;
  const started = Date.now();
  const report: BatchReport = {
    written: 0,
    failed: 0,
    failures: new Map(),
    pages: 0,
    notStarted: 0,
    abandoned: 0,
    seconds: 0,
  };
  let next = 0;
  let inFlight = 0;
  const worker = async (): Promise<void> => {
    while (!interrupt.stopping && !out.error && next < files.length) {
      const file = files[next++]!;
      inFlight++;
      let line: Record<string, unknown>;
      let code: string | undefined;
      let pages: number | undefined;
      try {
        ({ line, pages } = await work(file));
      } catch (error) {
        const described = describeError(error);
        code = described.code;
        line = { file, error: described };
      }
      inFlight--;
      // Abandoned: the run is over and its output closed; this line is not written.
      if (interrupt.abandonedNow) return;
      await out.write(line);
      if (out.error) return;
      report.written++;
      report.pages += pages ?? 0;
      if (code) {
        report.failed++;
        report.failures.set(code, (report.failures.get(code) ?? 0) + 1);
      }
      progress.done(file, code);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency, files.length)) }, worker);
  await Promise.race([Promise.all(workers), interrupt.abandoned]);
  report.abandoned = interrupt.abandonedNow ? inFlight : 0;
  report.notStarted = files.length - next;
  report.seconds = (Date.now() - started) / 1000;
  return report;
}

/** The summary printed on stderr at the end of a batch. */
export function summary(
  command: string,
  report: BatchReport,
  extra: { skipped: number; outFile?: string | undefined; interrupted: boolean },
): string {
  const rate = report.written / Math.max(report.seconds, 0.001);
  const failures = [...report.failures.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  const lines = [
    `docex ${command}: ${plural(report.written, 'file')}, ${plural(report.pages, 'page')}, ` +
      `${report.failed} failed${failures ? ` (${failures})` : ''}, ` +
      `${formatDuration(report.seconds)} (${rate.toFixed(2)} files/s)`,
  ];
  if (extra.skipped > 0)
    lines.push(`  ${plural(extra.skipped, 'file')} skipped: already in ${extra.outFile ?? 'the output'}`);
  if (extra.interrupted) {
    const left = report.notStarted + report.abandoned;
    lines.push(
      `  interrupted: ${plural(report.notStarted, 'file')} not started` +
        (report.abandoned ? `, ${report.abandoned} abandoned` : '') +
        (left > 0 && extra.outFile ? `; run again with --resume to read them` : ''),
    );
  }
  return lines.join('\n') + '\n';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
