import busboy from 'busboy';
import { DocexError } from '../core/errors.js';

export interface MultipartBody {
  /** Text fields by name, every value of a repeated field in order. */
  fields: Record<string, string[]>;
  /** The file part, when there was one with the expected name. */
  file?: { name: string; bytes: Uint8Array };
}

export interface MultipartLimits {
  /** Name(s) of the file part. */
  fileFields: readonly string[];
  /** Largest file accepted: a larger one stops the upload with FILE_TOO_LARGE while it streams. */
  maxFileBytes: number;
  maxFields?: number;
  maxFieldBytes?: number;
}

/**
 * Parses a multipart/form-data body with busboy while it streams: the size limit stops the upload as
 * soon as the file part passes it (the rest of the body is not read), and a malformed body is a
 * MALFORMED_REQUEST, never a crash.
 */
export async function readMultipart(request: Request, limits: MultipartLimits): Promise<MultipartBody> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw new DocexError('MALFORMED_REQUEST', 'The request must be multipart/form-data.');
  }
  const declared = Number(request.headers.get('content-length'));
  const bodyLimit = limits.maxFileBytes + 1024 * 1024;
  if (Number.isFinite(declared) && declared > bodyLimit) throw tooLarge(limits.maxFileBytes);
  if (!request.body) throw new DocexError('MALFORMED_REQUEST', 'The request has no body.');

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: {
        fileSize: limits.maxFileBytes + 1,
        files: 1,
        fields: limits.maxFields ?? 100,
        fieldSize: limits.maxFieldBytes ?? 1024 * 1024,
        parts: (limits.maxFields ?? 100) + 1,
      },
    });
  } catch {
    throw new DocexError('MALFORMED_REQUEST', 'The multipart body has no valid boundary.');
  }

  // Field names are the client's: `constructor` or `__proto__` are names like any other.
  const fields = Object.create(null) as Record<string, string[]>;
  let file: MultipartBody['file'];
  let failure: DocexError | undefined;
  const done = new Promise<void>((resolve) => {
    parser.on('field', (name, value) => {
      (fields[name] ??= []).push(value);
    });
    parser.on('file', (name, stream, info) => {
      // busboy destroys an open file stream with an error when the body ends early or is cut off:
      // without a listener that error would be thrown in the host process.
      stream.on('error', () => {
        failure ??= new DocexError('MALFORMED_REQUEST', 'The multipart body is malformed.');
        resolve();
      });
      if (!limits.fileFields.includes(name) || file) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        chunks.push(chunk);
      });
      stream.on('limit', () => {
        failure ??= tooLarge(limits.maxFileBytes);
        resolve();
      });
      stream.on('end', () => {
        if (!failure)
          file = { name: info.filename ?? name, bytes: new Uint8Array(Buffer.concat(chunks, size)) };
      });
    });
    parser.on('partsLimit', () => {
      failure ??= new DocexError('MALFORMED_REQUEST', 'The multipart body has too many parts.');
      resolve();
    });
    parser.on('fieldsLimit', () => {
      failure ??= new DocexError('MALFORMED_REQUEST', 'The multipart body has too many fields.');
      resolve();
    });
    parser.on('error', () => {
      failure ??= new DocexError('MALFORMED_REQUEST', 'The multipart body is malformed.');
      resolve();
    });
    parser.on('close', () => resolve());
  });

  const reader = request.body.getReader();
  let received = 0;
  try {
    for (;;) {
      if (failure) break;
      const { done: end, value } = await reader.read();
      if (end) break;
      received += value.byteLength;
      if (received > bodyLimit) {
        failure ??= tooLarge(limits.maxFileBytes);
        break;
      }
      // Backpressure: wait for busboy to take the chunk before reading the next one.
      if (!parser.write(value)) await new Promise<void>((resolve) => parser.once('drain', resolve));
    }
    if (!failure) parser.end();
    else await reader.cancel().catch(() => undefined);
  } catch (error) {
    failure ??=
      error instanceof DocexError
        ? error
        : new DocexError('MALFORMED_REQUEST', 'The request body could not be read.');
  } finally {
    reader.releaseLock();
  }
  if (!failure) await done;
  if (failure) {
    parser.destroy();
    throw failure;
  }
  return file ? { fields, file } : { fields };
}

function tooLarge(maxFileBytes: number): DocexError {
  return new DocexError('FILE_TOO_LARGE', `The file is larger than the limit of ${maxFileBytes} bytes.`);
}
