import { createHash, randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';

import { createFsFileStore } from '../../../src/adapters/stores/fs-file-store.js';
import { describeFileStoreContract, makeRecord } from '../../ports/file-store.contract.js';

async function makeDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'docex-fs-file-store-'));
}

describeFileStoreContract('fs', async () => {
  const dir = await makeDir();
  return { store: createFsFileStore({ dir }), cleanup: () => rm(dir, { recursive: true, force: true }) };
});

function accountHash(accountId: string): string {
  return createHash('sha256').update(accountId).digest('hex').slice(0, 32);
}

async function withDir(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await makeDir();
  try {
    await test(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe('createFsFileStore', () => {
  it('uses the documented layout', () =>
    withDir(async (dir) => {
      const store = createFsFileStore({ dir });
      const record = makeRecord();
      await store.put(record, Uint8Array.from([1, 2, 3]));
      await store.putArtifact('account-a', record.fileId, 'tokens.json', Uint8Array.from([4]));

      const fileDir = join(dir, 'accounts', accountHash('account-a'), record.fileId);
      expect(JSON.parse(await readFile(join(fileDir, 'record.json'), 'utf8'))).toStrictEqual(record);
      expect([...(await readFile(join(fileDir, 'content.bin')))]).toEqual([1, 2, 3]);
      expect([...(await readFile(join(fileDir, 'artifacts', 'tokens.json')))]).toEqual([4]);
      expect(await readdir(join(dir, 'accounts'))).toEqual([accountHash('account-a')]);
    }));

  it('leaves no temp files behind', () =>
    withDir(async (dir) => {
      const store = createFsFileStore({ dir });
      const records = Array.from({ length: 5 }, () => makeRecord());
      await Promise.all(records.map((record) => store.put(record, Uint8Array.from([1, 2, 3]))));
      for (const record of records) {
        await store.putArtifact('account-a', record.fileId, 'tokens.json', Uint8Array.from([1]));
        await store.putArtifact('account-a', record.fileId, 'tokens.json', Uint8Array.from([2]));
        await store.put(record, Uint8Array.from([4, 5]));
      }
      await store.delete('account-a', records[0]!.fileId);

      const entries = await readdir(dir, { recursive: true });
      expect(entries.length).toBeGreaterThan(0);
      expect(
        entries.filter((entry) => entry.split(/[\\/]/).some((part) => part.startsWith('.tmp-'))),
      ).toEqual([]);
    }));

  it('keeps the data for a second store on the same directory', () =>
    withDir(async (dir) => {
      const first = createFsFileStore({ dir });
      const older = makeRecord({ uploadedAt: '2024-01-01T00:00:00.000Z', name: 'older.pdf' });
      const newer = makeRecord({ uploadedAt: '2024-02-01T00:00:00.000Z', metadata: { a: [1, { b: 'c' }] } });
      await first.put(newer, Uint8Array.from([7, 8, 9]));
      await first.put(older, Uint8Array.from([1, 2, 3]));
      await first.putArtifact('account-a', older.fileId, 'tokens.json', Uint8Array.from([42]));

      const second = createFsFileStore({ dir });
      const got = await second.get('account-a', older.fileId);
      expect(got?.record).toStrictEqual(older);
      expect([...(got?.content ?? [])]).toEqual([1, 2, 3]);
      expect([...((await second.getArtifact('account-a', older.fileId, 'tokens.json')) ?? [])]).toEqual([42]);
      expect(await second.list('account-a')).toStrictEqual([older, newer]);
      expect(await second.delete('account-a', newer.fileId)).toBe(true);
      expect(await first.stat('account-a', newer.fileId)).toBeUndefined();
    }));

  it('treats a file directory without record.json (a crashed put) as absent', () =>
    withDir(async (dir) => {
      const store = createFsFileStore({ dir });
      const complete = makeRecord();
      await store.put(complete, Uint8Array.from([1]));

      const crashedId = randomUUID();
      const crashedDir = join(dir, 'accounts', accountHash('account-a'), crashedId);
      await mkdir(crashedDir, { recursive: true });
      await writeFile(join(crashedDir, 'content.bin'), Uint8Array.from([9, 9]));
      await writeFile(join(crashedDir, `.tmp-${randomUUID()}`), '{"half": ');

      expect(await store.list('account-a')).toStrictEqual([complete]);
      expect(await store.get('account-a', crashedId)).toBeUndefined();
      expect(await store.stat('account-a', crashedId)).toBeUndefined();
      expect(await store.getArtifact('account-a', crashedId, 'tokens.json')).toBeUndefined();
      expect(await store.putArtifact('account-a', crashedId, 'tokens.json', Uint8Array.from([1]))).toBe(
        false,
      );
      expect(await store.delete('account-a', crashedId)).toBe(false);

      // A later put of the same id completes it.
      const record = makeRecord({ fileId: crashedId });
      await store.put(record, Uint8Array.from([5]));
      const got = await store.get('account-a', crashedId);
      expect(got?.record).toStrictEqual(record);
      expect([...(got?.content ?? [])]).toEqual([5]);
    }));

  it('does not return a record stored under an account directory it does not belong to', () =>
    withDir(async (dir) => {
      const store = createFsFileStore({ dir });
      const record = makeRecord({ accountId: 'account-b' });
      await store.put(record, Uint8Array.from([1]));
      await store.putArtifact('account-b', record.fileId, 'tokens.json', Uint8Array.from([2]));
      // Copy account B's file into account A's directory, as a hash collision or tampering would.
      await cp(
        join(dir, 'accounts', accountHash('account-b'), record.fileId),
        join(dir, 'accounts', accountHash('account-a'), record.fileId),
        { recursive: true },
      );

      expect(await store.get('account-a', record.fileId)).toBeUndefined();
      expect(await store.stat('account-a', record.fileId)).toBeUndefined();
      expect(await store.getArtifact('account-a', record.fileId, 'tokens.json')).toBeUndefined();
      expect(await store.list('account-a')).toEqual([]);
      expect(await store.delete('account-a', record.fileId)).toBe(false);
      expect(await store.stat('account-b', record.fileId)).toStrictEqual(record);
    }));

  it('removes the file directory on delete', () =>
    withDir(async (dir) => {
      const store = createFsFileStore({ dir });
      const record = makeRecord();
      await store.put(record, Uint8Array.from([1]));
      await store.putArtifact('account-a', record.fileId, 'tokens.json', Uint8Array.from([2]));
      const fileDir = join(dir, 'accounts', accountHash('account-a'), record.fileId);
      expect(await exists(fileDir)).toBe(true);
      expect(await store.delete('account-a', record.fileId)).toBe(true);
      expect(await exists(fileDir)).toBe(false);
    }));

  it('works on a directory that does not exist yet', () =>
    withDir(async (dir) => {
      const store = createFsFileStore({ dir: join(dir, 'not', 'yet') });
      expect(await store.list('account-a')).toEqual([]);
      expect(await store.get('account-a', randomUUID())).toBeUndefined();
      const record = makeRecord();
      await store.put(record, Uint8Array.from([1]));
      expect(await store.stat('account-a', record.fileId)).toStrictEqual(record);
    }));
});

describe('createFsFileStore: writes cut short', () => {
  it('stores nothing when the record cannot be written (data nested past what JSON.stringify can walk)', () =>
    withDir(async (dir) => {
      const store = createFsFileStore({ dir });
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 100_000; i++) deep = { a: deep };
      const record = makeRecord({ metadata: deep });
      await expect(store.put(record, Uint8Array.from([1, 2, 3]))).rejects.toThrow();
      expect(await exists(join(dir, 'accounts', accountHash(record.accountId), record.fileId))).toBe(false);
      expect(await store.list(record.accountId)).toEqual([]);
    }));

  it('sweeps what a crash left behind once it is old enough: directories without a record, temporary files', () =>
    withDir(async (dir) => {
      const store = createFsFileStore({ dir });
      const kept = makeRecord();
      await store.put(kept, Uint8Array.from([1]));
      const accountDir = join(dir, 'accounts', accountHash(kept.accountId));
      // A put that crashed after its content: no record.json. And a temporary file in a kept file's directory.
      const orphan = join(accountDir, randomUUID());
      await mkdir(orphan, { recursive: true });
      await writeFile(join(orphan, 'content.bin'), 'x');
      await writeFile(join(accountDir, kept.fileId, '.tmp-123'), 'x');
      // Fresh: another process may be writing them right now.
      expect(await store.sweepOrphans()).toBe(0);
      expect(await exists(orphan)).toBe(true);
      // Old enough (here: any age).
      expect(await store.sweepOrphans({ olderThanMs: -1000 })).toBe(2);
      expect(await exists(orphan)).toBe(false);
      expect(await readdir(join(accountDir, kept.fileId))).not.toContain('.tmp-123');
      expect((await store.get(kept.accountId, kept.fileId))?.content).toEqual(Uint8Array.from([1]));
    }));
});
