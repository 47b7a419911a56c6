import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import type { FileRecord } from '../../core/types.js';
import {
  UUID,
  assertArtifactName,
  assertFileId,
  compareRecords,
  parseStoredRecord,
} from '../../ports/file-store.js';
import type { FileStore } from '../../ports/file-store.js';

const RECORD = 'record.json';
const CONTENT = 'content.bin';
const ARTIFACTS = 'artifacts';
/** How many records `list` reads at once (keeps the number of open files bounded). */
const LIST_BATCH = 32;

function isEnoent(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}

/** Reads a whole file; undefined when it does not exist. */
async function readIfPresent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isEnoent(error)) return undefined;
    throw error;
  }
}

/** Writes `<dir>/<name>` atomically: a temp file in the same directory, flushed, then renamed over it. */
async function writeAtomic(dir: string, name: string, data: Uint8Array | string): Promise<void> {
  const tmp = join(dir, `.tmp-${randomUUID()}`);
  try {
    const handle = await open(tmp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, join(dir, name));
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** Directories left by puts that crashed are swept once they are this old (a put in progress is not). */
const ORPHAN_AGE_MS = 10 * 60_000;

export interface FsFileStore extends FileStore {
  /**
   * Removes what writes cut short by a crash left behind: file directories without a record and
   * temporary files, older than `olderThanMs` (default 10 minutes, so a put still in progress in
   * another process sharing the directory is left alone). Resolves to how many were removed.
   */
  sweepOrphans(options?: { olderThanMs?: number }): Promise<number>;
}

async function readdirIfPresent(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch (error) {
    if (isEnoent(error) || (error as { code?: string }).code === 'ENOTDIR') return [];
    throw error;
  }
}

async function olderThanMark(path: string, mark: number): Promise<boolean> {
  try {
    return (await stat(path)).mtimeMs < mark;
  } catch {
    return false;
  }
}

/**
 * A FileStore on the local file system:
 * `<dir>/accounts/<first 32 hex chars of sha256(accountId)>/<fileId>/{record.json, content.bin, artifacts/<name>}`.
 *
 * Every file is written to a temp file in its directory and renamed into place. `put` writes the content
 * first and record.json last, so a directory without record.json (a put that crashed, or one in progress)
 * is treated as absent. Re-putting a file first removes its record.json and its artifacts (they were
 * derived from the old content), so readers see the old file, nothing, or the new file.
 * Reads check that the stored record belongs to the account asked for.
 */
export function createFsFileStore(options: { dir: string }): FsFileStore {
  const root = resolve(options.dir);

  function accountDir(accountId: string): string {
    const hash = createHash('sha256').update(accountId, 'utf8').digest('hex').slice(0, 32);
    return join(root, 'accounts', hash);
  }

  function fileDir(accountId: string, fileId: string): string {
    return join(accountDir(accountId), fileId);
  }

  async function readRecord(accountId: string, fileId: string): Promise<FileRecord | undefined> {
    const bytes = await readIfPresent(join(fileDir(accountId, fileId), RECORD));
    return bytes === undefined ? undefined : parseStoredRecord(bytes, accountId, fileId);
  }

  return {
    async put(record, content) {
      assertFileId(record.fileId);
      // The record is made first: one that cannot be written stores nothing.
      const json = JSON.stringify(record);
      const dir = fileDir(record.accountId, record.fileId);
      await mkdir(dir, { recursive: true });
      // The old file (if any) disappears as a whole before the new one is written.
      await rm(join(dir, RECORD), { force: true });
      await rm(join(dir, ARTIFACTS), { recursive: true, force: true });
      try {
        await writeAtomic(dir, CONTENT, content);
        await writeAtomic(dir, RECORD, json);
      } catch (error) {
        // A put that fails leaves nothing behind (a crash in the middle is swept by sweepOrphans).
        await rm(dir, { recursive: true, force: true }).catch(() => undefined);
        throw error;
      }
    },

    async get(accountId, fileId) {
      assertFileId(fileId);
      const record = await readRecord(accountId, fileId);
      if (record === undefined) return undefined;
      const content = await readIfPresent(join(fileDir(accountId, fileId), CONTENT));
      if (content === undefined) return undefined; // deleted meanwhile
      return { record, content: new Uint8Array(content) };
    },

    async stat(accountId, fileId) {
      assertFileId(fileId);
      return readRecord(accountId, fileId);
    },

    async delete(accountId, fileId) {
      assertFileId(fileId);
      const record = await readRecord(accountId, fileId);
      if (record === undefined) return false;
      const dir = fileDir(accountId, fileId);
      // Removing record.json makes the file absent at once; of two concurrent deletes only one sees it.
      try {
        await unlink(join(dir, RECORD));
      } catch (error) {
        if (isEnoent(error)) return false;
        throw error;
      }
      await rm(dir, { recursive: true, force: true });
      return true;
    },

    async list(accountId) {
      let names: string[];
      try {
        names = await readdir(accountDir(accountId));
      } catch (error) {
        if (isEnoent(error)) return [];
        throw error;
      }
      const ids = names.filter((name) => UUID.test(name));
      const records: FileRecord[] = [];
      for (let i = 0; i < ids.length; i += LIST_BATCH) {
        const batch = await Promise.all(ids.slice(i, i + LIST_BATCH).map((id) => readRecord(accountId, id)));
        for (const record of batch) if (record !== undefined) records.push(record);
      }
      return records.sort(compareRecords);
    },

    async putArtifact(accountId, fileId, name, content) {
      assertFileId(fileId);
      assertArtifactName(name);
      if ((await readRecord(accountId, fileId)) === undefined) return false;
      const dir = join(fileDir(accountId, fileId), ARTIFACTS);
      await mkdir(dir, { recursive: true });
      await writeAtomic(dir, name, content);
      return true;
    },

    async sweepOrphans(sweep = {}) {
      const olderThan = Date.now() - (sweep.olderThanMs ?? ORPHAN_AGE_MS);
      let removed = 0;
      for (const account of await readdirIfPresent(join(root, 'accounts'))) {
        const accountPath = join(root, 'accounts', account);
        for (const name of await readdirIfPresent(accountPath)) {
          const dir = join(accountPath, name);
          if (!UUID.test(name)) continue;
          const entries = await readdirIfPresent(dir);
          // Temporary files of writes that never finished.
          for (const entry of entries.filter((e) => e.startsWith('.tmp-'))) {
            if (await olderThanMark(join(dir, entry), olderThan)) {
              await rm(join(dir, entry), { force: true });
              removed++;
            }
          }
          // A file directory without its record is a put that never finished (or a delete cut short).
          if (!entries.includes(RECORD) && (await olderThanMark(dir, olderThan))) {
            await rm(dir, { recursive: true, force: true });
            removed++;
          }
        }
      }
      return removed;
    },

    async getArtifact(accountId, fileId, name) {
      assertFileId(fileId);
      assertArtifactName(name);
      if ((await readRecord(accountId, fileId)) === undefined) return undefined;
      const bytes = await readIfPresent(join(fileDir(accountId, fileId), ARTIFACTS, name));
      return bytes === undefined ? undefined : new Uint8Array(bytes);
    },
  };
}
