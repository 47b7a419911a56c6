import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Where result lines go: each `write` puts one whole line, in the order called. */
export interface LineWriter {
  write(line: Record<string, unknown>): Promise<void>;
  /** Set when writing failed (a full disk, a closed pipe): the batch starts no more files. */
  readonly error?: Error | undefined;
  /** Waits for the lines written so far, then closes the file (stdout stays open). */
  close(): Promise<void>;
}

/** A writable like process.stdout. */
export interface OutStream {
  write(text: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
  on?(event: 'error', listener: (error: Error) => void): unknown;
  off?(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Lines to stdout, waiting for the stream to drain when it asks to. A closed pipe (`docex ... | head`)
 * sets `error` instead of crashing the process; the lines after it are dropped.
 */
export function streamWriter(stream: OutStream): LineWriter {
  let chain = Promise.resolve();
  let failed: Error | undefined;
  let wake: (() => void) | undefined;
  const onError = (error: Error): void => {
    failed ??= error;
    wake?.();
  };
  stream.on?.('error', onError);
  return {
    get error() {
      return failed;
    },
    write(line) {
      const text = JSON.stringify(line) + '\n';
      chain = chain.then(
        () =>
          new Promise<void>((resolve) => {
            if (failed || stream.write(text)) return resolve();
            wake = resolve;
            stream.once('drain', resolve);
          }),
      );
      return chain;
    },
    async close() {
      await chain;
      stream.off?.('error', onError);
    },
  };
}

/**
 * Lines appended to a file, each with one write of the whole line (looping only if the system wrote
 * part of it), one after the other: a run interrupted or killed leaves every line it finished, and at
 * worst one partial last line, which `--resume` removes.
 */
export async function fileWriter(file: string, options: { append: boolean }): Promise<LineWriter> {
  const handle = await open(file, options.append ? 'a' : 'w');
  let chain = Promise.resolve();
  let closed = false;
  let failed: Error | undefined;
  return {
    get error() {
      return failed;
    },
    write(line) {
      const bytes = Buffer.from(JSON.stringify(line) + '\n');
      chain = chain.then(async () => {
        if (closed || failed) return;
        await writeAll(handle, bytes).catch((error: Error) => {
          failed = error;
        });
      });
      return chain;
    },
    async close() {
      await chain.catch(() => {});
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}

async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

export interface PreviousRun {
  /** Resolved paths of the files that already have a line. */
  done: Set<string>;
  /** Lines that are not a JSON object with a `file` (their files, if any, are read again). */
  unreadable: number;
  /** What was done to a last line without its newline: dropped (partial) or completed. */
  lastLine?: 'dropped' | 'completed';
}

/**
 * Reads the lines an earlier run left in `file` (missing: none), streaming, so a large output is not
 * held in memory. A last line without its newline is the write a crash cut short: cut off from the
 * file, or, when it is nevertheless a whole JSON line, given its newline.
 */
export async function readPreviousRun(file: string): Promise<PreviousRun> {
  const done = new Set<string>();
  let unreadable = 0;
  const take = (text: string): boolean => {
    if (text.trim() === '') return true;
    try {
      const value: unknown = JSON.parse(text);
      if (value && typeof value === 'object' && typeof (value as { file?: unknown }).file === 'string') {
        done.add(path.resolve((value as { file: string }).file));
        return true;
      }
    } catch {
      // counted below
    }
    unreadable++;
    return false;
  };
  let size = 0;
  let rest: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of createReadStream(file)) {
      const bytes = chunk as Buffer;
      size += bytes.length;
      let buffer = rest.length ? Buffer.concat([rest, bytes]) : bytes;
      let newline;
      while ((newline = buffer.indexOf(0x0a)) !== -1) {
        take(buffer.subarray(0, newline).toString('utf8'));
        buffer = buffer.subarray(newline + 1);
      }
      rest = Buffer.from(buffer);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { done, unreadable };
    throw error;
  }
  if (rest.length === 0) return { done, unreadable };
  const whole = take(rest.toString('utf8'));
  const handle = await open(file, 'r+');
  try {
    if (whole) {
      await handle.write('\n', size);
      return { done, unreadable, lastLine: 'completed' };
    }
    unreadable--;
    await handle.truncate(size - rest.length);
    return { done, unreadable, lastLine: 'dropped' };
  } finally {
    await handle.close();
  }
}
