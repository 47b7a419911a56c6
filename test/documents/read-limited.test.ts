import { describe, expect, it } from 'vitest';
import { readWithLimit } from '../../src/documents/read-limited.js';

describe('readWithLimit', () => {
  it('joins the chunks of a stream', async () => {
    async function* chunks() {
      yield new Uint8Array([1, 2]);
      yield new Uint8Array([3]);
    }
    expect([...(await readWithLimit(chunks(), 10))]).toEqual([1, 2, 3]);
  });

  it('stops reading an endless stream as soon as it passes the limit', async () => {
    let pulled = 0;
    let finished = false;
    async function* endless() {
      try {
        for (;;) {
          pulled++;
          yield new Uint8Array(1024);
        }
      } finally {
        finished = true;
      }
    }
    await expect(readWithLimit(endless(), 10 * 1024)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(pulled).toBe(11);
    expect(finished).toBe(true);
  });

  it('cancels a web stream that passes the limit', async () => {
    let cancelled = false;
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(4096));
      },
      cancel() {
        cancelled = true;
      },
    });
    await expect(readWithLimit(stream, 8192)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(6);
  });

  it('checks plain buffers too', async () => {
    await expect(readWithLimit(new Uint8Array(11), 10)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect((await readWithLimit(new Uint8Array(10), 10)).byteLength).toBe(10);
  });
});
