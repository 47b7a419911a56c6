import { isDocexError } from '../core/errors.js';

/** A file's failure as an engine thread described it: the batch writes its code and message. */
export class ThreadFileError extends Error {
  constructor(readonly failure: { code: string; message: string }) {
    super(failure.message);
    this.name = 'ThreadFileError';
  }
}

/** A file's error as its line gives it: a code and a message for a person. */
export function describeError(error: unknown): { code: string; message: string } {
  if (error instanceof ThreadFileError) return error.failure;
  if (isDocexError(error)) return { code: error.code, message: error.message };
  const system = error as NodeJS.ErrnoException;
  if (typeof system?.code === 'string' && typeof system.message === 'string')
    return { code: 'IO_ERROR', message: system.message };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}
