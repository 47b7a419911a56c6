import { DocexError } from '../core/errors.js';
import type { FileRecord } from '../core/types.js';

/**
 * Stores uploaded files, their records, and artifacts derived from them (the token layer) by account.
 *
 * Contract (checked by test/ports/file-store.contract.ts for every adapter):
 * - `put` stores the record and the content atomically: a reader sees the whole file or nothing.
 *   Putting an existing (accountId, fileId) replaces it.
 * - Every read is scoped by account: a file of another account is reported as absent.
 * - `fileId` is a UUID made by the engine; an adapter refuses any other id (never a path from a user).
 * - Artifact names match /^[a-z0-9][a-z0-9._-]{0,63}$/; other names are refused.
 * - `delete` removes the file and its artifacts and reports whether anything was there. Of two
 *   concurrent deletes of one file, one reports true (memory, fs); an object store without conditional
 *   deletes (S3) may report true to both.
 * - `list` returns the records of one account, oldest upload first.
 * `get` and `getArtifact` return buffers the caller owns: changing them changes nothing stored.
 * Adapters throw DocexError('INVALID_ARGUMENT') for a bad id or name; nothing else is thrown for absence.
 */
export interface FileStore {
  put(record: FileRecord, content: Uint8Array): Promise<void>;
  get(accountId: string, fileId: string): Promise<{ record: FileRecord; content: Uint8Array } | undefined>;
  stat(accountId: string, fileId: string): Promise<FileRecord | undefined>;
  delete(accountId: string, fileId: string): Promise<boolean>;
  list(accountId: string): Promise<FileRecord[]>;
  /** Stores derived data for a file that exists; returns false when the file does not. */
  putArtifact(accountId: string, fileId: string, name: string, content: Uint8Array): Promise<boolean>;
  getArtifact(accountId: string, fileId: string, name: string): Promise<Uint8Array | undefined>;
}

export const ARTIFACT_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Refuses anything but an engine-made file id (adapters call this before touching storage). */
export function assertFileId(fileId: string): void {
  if (typeof fileId !== 'string' || !UUID.test(fileId)) {
    throw new DocexError('INVALID_ARGUMENT', 'The file id is not a valid id.');
  }
}

export function assertArtifactName(name: string): void {
  if (typeof name !== 'string' || !ARTIFACT_NAME.test(name)) {
    throw new DocexError('INVALID_ARGUMENT', 'The artifact name is not a valid name.');
  }
}

/**
 * A stored record.json read back (by the adapters that keep records as JSON): the record when it is
 * the asked account's file, undefined when it belongs to another; INTERNAL when it is unreadable.
 */
export function parseStoredRecord(
  bytes: Uint8Array,
  accountId: string,
  fileId: string,
): FileRecord | undefined {
  let record: unknown;
  try {
    record = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (cause) {
    throw new DocexError('INTERNAL', 'A stored file record is unreadable.', { cause });
  }
  if (typeof record !== 'object' || record === null) {
    throw new DocexError('INTERNAL', 'A stored file record is unreadable.');
  }
  const candidate = record as FileRecord;
  return candidate.accountId === accountId && candidate.fileId === fileId ? candidate : undefined;
}

/** The order of `list`: oldest upload first, then by file id. */
export function compareRecords(a: FileRecord, b: FileRecord): number {
  if (a.uploadedAt !== b.uploadedAt) return a.uploadedAt < b.uploadedAt ? -1 : 1;
  return a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : 0;
}
