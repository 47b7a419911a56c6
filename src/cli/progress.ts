import { SingleBar } from 'cli-progress';

/** Where progress goes: stderr, or a stream a test gives. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export type ProgressMode = 'bar' | 'plain' | 'none';

export interface Progress {
  /** A file finished: its path and its error code, if it failed. */
  done(file: string, errorCode?: string): void;
  /** Removes the bar (before the summary or a message). */
  stop(): void;
}

/**
 * Progress of a batch of `total` files on stderr: a bar with files/s and ETA (cli-progress), a plain line
 * per finished file, or nothing.
 */
export function createProgress(mode: ProgressMode, total: number, stream: ProgressStream): Progress {
  const started = Date.now();
  let finished = 0;
  // Over one second at least, so a first file that fails at once does not show a rate of hundreds.
  const rate = (): number => finished / Math.max((Date.now() - started) / 1000, 1);
  if (mode === 'none' || total === 0) return { done: () => {}, stop: () => {} };
  if (mode === 'plain') {
    return {
      done(file, errorCode) {
        finished++;
        const eta = finished < total ? `, ETA ${formatDuration((total - finished) / rate())}` : '';
        stream.write(
          `[${finished}/${total}] ${file}: ${errorCode ?? 'ok'} (${rate().toFixed(2)} files/s${eta})\n`,
        );
      },
      stop() {},
    };
  }
  const keepAbove = writesAboveTheBar(stream);
  const bar = new SingleBar({
    stream: keepAbove.barStream as NodeJS.WritableStream,
    format:
      ' {bar} {percentage}% | {value}/{total} files | {rate} files/s | ETA {eta_formatted} | {failed} failed',
    barsize: 30,
    hideCursor: true,
    clearOnComplete: false,
    gracefulExit: false,
    // Redrawn on every finished file and twice a second for the clock; the ETA averages the last 20 files.
    fps: 2,
    etaBuffer: 20,
    // Forced with --progress bar on a stream that is no terminal: a line at each redraw.
    noTTYOutput: stream.isTTY !== true,
    notTTYSchedule: 2000,
  });
  let failed = 0;
  let stopped = false;
  bar.start(total, 0, { rate: '0.00', failed: 0 });
  return {
    done(_file, errorCode) {
      finished++;
      if (errorCode) failed++;
      if (!stopped) bar.update(finished, { rate: rate().toFixed(2), failed });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
      keepAbove.restore();
    },
  };
}

/**
 * While the bar runs, whatever else writes to its stream (leptonica's and tesseract's messages from
 * OCR worker threads, piped to stderr by Node, a warning) gets a line of its own above the bar instead
 * of being written into it: on a terminal the bar's line is cleared first and the bar is drawn again
 * below at its next redraw. The bar itself writes through `barStream`, straight to the stream.
 */
function writesAboveTheBar(stream: ProgressStream): { barStream: ProgressStream; restore(): void } {
  type Write = (chunk: unknown, ...rest: unknown[]) => unknown;
  const target = stream as unknown as { write: Write };
  const own = Object.prototype.hasOwnProperty.call(target, 'write');
  const previous = target.write;
  const write = previous.bind(target) as Write;
  const barStream = {
    write: (text: string) => write(text),
    get isTTY() {
      return stream.isTTY === true;
    },
    get columns() {
      return stream.columns ?? 80;
    },
  };
  let atLineStart = true;
  target.write = (chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    const clear = atLineStart && stream.isTTY === true ? '\r\x1b[K' : '';
    atLineStart = text.endsWith('\n');
    return write(clear + text, ...rest.filter((r) => typeof r === 'function'));
  };
  return {
    barStream,
    restore() {
      if (own) target.write = previous;
      else delete (target as { write?: Write }).write;
    },
  };
}

/** `4.2 s`, `3 min 05 s`, `1 h 02 min`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const s = Math.round(seconds);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}
