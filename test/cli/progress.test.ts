/**
 * The progress bar and other writers of its stream: a message written while the bar runs (leptonica's
 * lines from OCR threads, piped to stderr) gets a line of its own above the bar, not the middle of it;
 * once the bar stops the stream is as it was. Plain progress is one line per file.
 */
import { describe, expect, it } from 'vitest';

import { createProgress } from '../../src/cli/progress.js';

function terminal(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = {
    isTTY,
    columns: 120,
    write(text: string) {
      chunks.push(String(text));
      return true;
    },
  };
  return { stream, chunks, original: stream.write };
}

describe('progress', () => {
  it('puts what others write while the bar runs on a cleared line of its own', () => {
    const { stream, chunks, original } = terminal(true);
    const progress = createProgress('bar', 3, stream);
    expect(stream.write).not.toBe(original);
    progress.done('a.pdf');
    stream.write('Warning: Invalid resolution 0 dpi. Using 70 instead.\n');
    stream.write(Buffer.from('Estimating resolution as 301\n') as unknown as string);
    progress.done('b.pdf', 'OCR_FAILED');
    const text = chunks.join('');
    expect(text).toContain('\r\x1b[KWarning: Invalid resolution 0 dpi. Using 70 instead.\n');
    expect(text).toContain('\r\x1b[KEstimating resolution as 301\n');
    // The bar is drawn through the same stream, without the prefix.
    expect(text).toMatch(/\d\/3 files/);
    progress.stop();
    expect(stream.write).toBe(original);
    chunks.length = 0;
    stream.write('after\n');
    expect(chunks).toEqual(['after\n']);
  });

  it('a message in pieces is cleared for once, at its start', () => {
    const { stream, chunks } = terminal(true);
    const progress = createProgress('bar', 2, stream);
    chunks.length = 0;
    stream.write('Warning: Invalid ');
    stream.write('resolution\n');
    progress.stop();
    expect(chunks.slice(0, 2)).toEqual(['\r\x1b[KWarning: Invalid ', 'resolution\n']);
  });

  it('on a stream that is no terminal, writes others’ lines as they are', () => {
    const { stream, chunks } = terminal(false);
    const progress = createProgress('bar', 2, stream);
    stream.write('Warning: Invalid resolution 0 dpi.\n');
    progress.stop();
    expect(chunks).toContain('Warning: Invalid resolution 0 dpi.\n');
  });

  it('plain progress: one line per finished file', () => {
    const { stream, chunks } = terminal(false);
    const progress = createProgress('plain', 2, stream);
    progress.done('a.pdf');
    progress.done('b.pdf', 'EMPTY_FILE');
    expect(chunks[0]).toMatch(/^\[1\/2\] a\.pdf: ok \(/);
    expect(chunks[1]).toMatch(/^\[2\/2\] b\.pdf: EMPTY_FILE \(/);
  });
});
