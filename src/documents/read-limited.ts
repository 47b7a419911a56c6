import { DocexError } from '../core/errors.js';

/** What an upload may come as: bytes, a web stream, or any async iterable of chunks (a Node stream). */
export type UploadInput = Uint8Array | ArrayBuffer | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/**
 * Collects an upload into one buffer, refusing it as soon as more than `maxBytes` have arrived: a
 * huge upload costs at most the limit in memory, never its whole size.
 */
export async function readWithLimit(input: UploadInput, maxBytes: number): Promise<Uint8Array> {
  if (input instanceof Uint8Array || input instanceof ArrayBuffer) {
    const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
    if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
    return bytes;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const iterable = isWebStream(input) ? webStreamChunks(input) : input;
  for await (const chunk of iterable) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      // Leaving the loop early tells the source to stop (return() on the iterator).
      throw tooLarge(maxBytes);
    }
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(maxBytes: number): DocexError {
  return new DocexError('FILE_TOO_LARGE', `The file is larger than the limit of ${maxBytes} bytes.`);
}

function isWebStream(input: unknown): input is ReadableStream<Uint8Array> {
  return typeof (input as ReadableStream | null)?.getReader === 'function';
}

async function* webStreamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
