import type { FileRecord } from '../../core/types.js';
import { assertArtifactName, assertFileId } from '../../ports/file-store.js';
import type { FileStore } from '../../ports/file-store.js';

interface Entry {
  record: FileRecord;
  content: Uint8Array;
  artifacts: Map<string, Uint8Array>;
}

/** A copy in a plain Uint8Array (`slice` on a Buffer would return a view, not a copy). */
function copyBytes(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

function compareRecords(a: FileRecord, b: FileRecord): number {
  if (a.uploadedAt !== b.uploadedAt) return a.uploadedAt < b.uploadedAt ? -1 : 1;
  if (a.fileId !== b.fileId) return a.fileId < b.fileId ? -1 : 1;
  return 0;
}

/**
 * A FileStore that keeps everything in memory, for tests and short-lived embedded use. Bytes and records
 * are copied on the way in and on the way out, so callers never share memory with the store.
 * Re-putting a file replaces its record and content and drops its artifacts (they were derived from the
 * old content).
 */
export function createMemoryFileStore(): FileStore {
  const accounts = new Map<string, Map<string, Entry>>();

  function find(accountId: string, fileId: string): Entry | undefined {
    return accounts.get(accountId)?.get(fileId);
  }

  return {
    async put(record, content) {
      assertFileId(record.fileId);
      let files = accounts.get(record.accountId);
      if (files === undefined) {
        files = new Map();
        accounts.set(record.accountId, files);
      }
      files.set(record.fileId, {
        record: structuredClone(record),
        content: copyBytes(content),
        artifacts: new Map(),
      });
    },

    async get(accountId, fileId) {
      assertFileId(fileId);
      const entry = find(accountId, fileId);
      if (entry === undefined) return undefined;
      return { record: structuredClone(entry.record), content: copyBytes(entry.content) };
    },

    async stat(accountId, fileId) {
      assertFileId(fileId);
      const entry = find(accountId, fileId);
      return entry === undefined ? undefined : structuredClone(entry.record);
    },

    async delete(accountId, fileId) {
      assertFileId(fileId);
      const files = accounts.get(accountId);
      if (files === undefined || !files.delete(fileId)) return false;
      if (files.size === 0) accounts.delete(accountId);
      return true;
    },

    async list(accountId) {
      const files = accounts.get(accountId);
      if (files === undefined) return [];
      return [...files.values()].map((entry) => structuredClone(entry.record)).sort(compareRecords);
    },

    async putArtifact(accountId, fileId, name, content) {
      assertFileId(fileId);
      assertArtifactName(name);
      const entry = find(accountId, fileId);
      if (entry === undefined) return false;
      entry.artifacts.set(name, copyBytes(content));
      return true;
    },

    async getArtifact(accountId, fileId, name) {
      assertFileId(fileId);
      assertArtifactName(name);
      const bytes = find(accountId, fileId)?.artifacts.get(name);
      return bytes === undefined ? undefined : copyBytes(bytes);
    },
  };
}
