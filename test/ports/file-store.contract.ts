import { randomUUID } from 'node:crypto';
import { describe, it, expect } from 'vitest';

import { DocexError } from '../../src/core/errors.js';
import type { FileRecord } from '../../src/core/types.js';
import type { FileStore } from '../../src/ports/file-store.js';

export type MakeFileStore = () => Promise<{ store: FileStore; cleanup?: () => Promise<void> }>;

const ACCOUNT_A = 'account-a';
const ACCOUNT_B = 'account-b';

function bytes(...values: number[]): Uint8Array {
  return Uint8Array.from(values);
}

/** Every byte value, twice, so encodings that mangle binary data are caught. */
function allBytes(): Uint8Array {
  const out = new Uint8Array(512);
  for (let i = 0; i < out.length; i++) out[i] = i % 256;
  return out;
}

/** A file record for the tests, of account A unless overridden. */
export function makeRecord(overrides: Partial<FileRecord> = {}): FileRecord {
  return {
    fileId: randomUUID(),
    accountId: ACCOUNT_A,
    mediaType: 'application/pdf',
    size: 3,
    pageCount: 1,
    uploadedAt: '2024-05-01T10:00:00.000Z',
    status: 'RECEIVED',
    metadata: {},
    ...overrides,
  };
}

function expectBytes(actual: Uint8Array | undefined, expected: Uint8Array): void {
  expect(actual).toBeInstanceOf(Uint8Array);
  expect(Array.from(actual ?? [])).toEqual(Array.from(expected));
}

async function expectInvalidArgument(action: () => Promise<unknown>): Promise<void> {
  const error = await action().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, 'expected a DocexError(INVALID_ARGUMENT)').toBeInstanceOf(DocexError);
  expect((error as DocexError).code).toBe('INVALID_ARGUMENT');
}

/**
 * Registers the tests of the FileStore contract (see src/ports/file-store.ts) for one adapter. `make`
 * is called once per test and must return an empty store; `cleanup` runs after the test.
 * `exclusiveDelete: false` for an adapter whose storage cannot tell which of two concurrent deletes
 * removed a file (an object store without conditional deletes): both may then report true.
 */
export function describeFileStoreContract(
  name: string,
  make: MakeFileStore,
  capabilities: { exclusiveDelete?: boolean } = {},
): void {
  const exclusiveDelete = capabilities.exclusiveDelete !== false;
  async function withStore(test: (store: FileStore) => Promise<void>): Promise<void> {
    const { store, cleanup } = await make();
    try {
      await test(store);
    } finally {
      await cleanup?.();
    }
  }

  describe(`FileStore contract: ${name}`, () => {
    describe('put and get', () => {
      it('round-trips the record and the bytes', () =>
        withStore(async (store) => {
          const content = allBytes();
          const record = makeRecord({
            size: content.length,
            name: 'invoice 2024 (final).pdf',
            metadata: { source: 'scanner', tags: ['a', 'b'], nested: { n: 1, ok: true, none: null } },
            parent: { fileId: randomUUID(), pages: [2, 3] },
          });
          await store.put(record, content);
          const got = await store.get(ACCOUNT_A, record.fileId);
          expect(got).toBeDefined();
          expect(got?.record).toStrictEqual(record);
          expectBytes(got?.content, content);
        }));

      it('round-trips a record without optional fields exactly', () =>
        withStore(async (store) => {
          const record = makeRecord({ mediaType: 'image/png' });
          await store.put(record, bytes(1, 2, 3));
          expect((await store.get(ACCOUNT_A, record.fileId))?.record).toStrictEqual(record);
          expect(await store.stat(ACCOUNT_A, record.fileId)).toStrictEqual(record);
        }));

      it('stores only the bytes of a view into a larger buffer', () =>
        withStore(async (store) => {
          const backing = bytes(9, 9, 1, 2, 3, 9, 9);
          const view = backing.subarray(2, 5);
          const record = makeRecord();
          await store.put(record, view);
          expectBytes((await store.get(ACCOUNT_A, record.fileId))?.content, bytes(1, 2, 3));
        }));

      it('stores empty content', () =>
        withStore(async (store) => {
          const record = makeRecord({ size: 0 });
          await store.put(record, new Uint8Array(0));
          expectBytes((await store.get(ACCOUNT_A, record.fileId))?.content, new Uint8Array(0));
        }));

      it('reports an unknown file as absent without throwing', () =>
        withStore(async (store) => {
          const fileId = randomUUID();
          expect(await store.get(ACCOUNT_A, fileId)).toBeUndefined();
          expect(await store.stat(ACCOUNT_A, fileId)).toBeUndefined();
          expect(await store.getArtifact(ACCOUNT_A, fileId, 'tokens.json')).toBeUndefined();
          expect(await store.delete(ACCOUNT_A, fileId)).toBe(false);
          expect(await store.list(ACCOUNT_A)).toEqual([]);
        }));
    });

    describe('stat', () => {
      it('returns the record of a stored file', () =>
        withStore(async (store) => {
          const record = makeRecord({ name: 'scan.jpg', mediaType: 'image/jpeg' });
          await store.put(record, bytes(1, 2, 3));
          expect(await store.stat(ACCOUNT_A, record.fileId)).toStrictEqual(record);
        }));
    });

    describe('replacing', () => {
      it('replaces the record and the content when the same file is put again', () =>
        withStore(async (store) => {
          const first = makeRecord({ name: 'first.pdf', size: 3 });
          await store.put(first, bytes(1, 2, 3));
          const second = { ...first, name: 'second.pdf', size: 5, pageCount: 4, metadata: { v: 2 } };
          await store.put(second, bytes(5, 4, 3, 2, 1));

          const got = await store.get(ACCOUNT_A, first.fileId);
          expect(got?.record).toStrictEqual(second);
          expectBytes(got?.content, bytes(5, 4, 3, 2, 1));
          expect(await store.stat(ACCOUNT_A, first.fileId)).toStrictEqual(second);
          expect(await store.list(ACCOUNT_A)).toStrictEqual([second]);
        }));

      it('replaces longer content with shorter content completely', () =>
        withStore(async (store) => {
          const record = makeRecord();
          await store.put(record, allBytes());
          await store.put(record, bytes(7));
          expectBytes((await store.get(ACCOUNT_A, record.fileId))?.content, bytes(7));
        }));

      it('drops the artifacts derived from the old content', () =>
        withStore(async (store) => {
          const record = makeRecord();
          await store.put(record, bytes(1, 2, 3));
          expect(await store.putArtifact(ACCOUNT_A, record.fileId, 'tokens.json', bytes(1))).toBe(true);
          await store.put(record, bytes(4, 5, 6));
          expect(await store.getArtifact(ACCOUNT_A, record.fileId, 'tokens.json')).toBeUndefined();
        }));
    });

    describe('account isolation', () => {
      it('reports a file of another account as absent', () =>
        withStore(async (store) => {
          const record = makeRecord({ accountId: ACCOUNT_A });
          await store.put(record, bytes(1, 2, 3));
          await store.putArtifact(ACCOUNT_A, record.fileId, 'tokens.json', bytes(4));

          expect(await store.get(ACCOUNT_B, record.fileId)).toBeUndefined();
          expect(await store.stat(ACCOUNT_B, record.fileId)).toBeUndefined();
          expect(await store.getArtifact(ACCOUNT_B, record.fileId, 'tokens.json')).toBeUndefined();
          expect(await store.putArtifact(ACCOUNT_B, record.fileId, 'other.json', bytes(5))).toBe(false);
          expect(await store.delete(ACCOUNT_B, record.fileId)).toBe(false);
          expect(await store.list(ACCOUNT_B)).toEqual([]);

          // The owner still has everything, and the other account's calls left no trace.
          expectBytes((await store.get(ACCOUNT_A, record.fileId))?.content, bytes(1, 2, 3));
          expectBytes(await store.getArtifact(ACCOUNT_A, record.fileId, 'tokens.json'), bytes(4));
          expect(await store.getArtifact(ACCOUNT_A, record.fileId, 'other.json')).toBeUndefined();
          expect(await store.list(ACCOUNT_A)).toStrictEqual([record]);
        }));

      it('keeps the same file id in two accounts apart', () =>
        withStore(async (store) => {
          const fileId = randomUUID();
          const inA = makeRecord({ fileId, accountId: ACCOUNT_A, name: 'a.pdf' });
          const inB = makeRecord({ fileId, accountId: ACCOUNT_B, name: 'b.pdf' });
          await store.put(inA, bytes(1));
          await store.put(inB, bytes(2));
          await store.putArtifact(ACCOUNT_A, fileId, 'tokens.json', bytes(10));

          expect((await store.get(ACCOUNT_A, fileId))?.record).toStrictEqual(inA);
          expectBytes((await store.get(ACCOUNT_A, fileId))?.content, bytes(1));
          expect((await store.get(ACCOUNT_B, fileId))?.record).toStrictEqual(inB);
          expectBytes((await store.get(ACCOUNT_B, fileId))?.content, bytes(2));
          expect(await store.getArtifact(ACCOUNT_B, fileId, 'tokens.json')).toBeUndefined();

          expect(await store.delete(ACCOUNT_B, fileId)).toBe(true);
          expect(await store.get(ACCOUNT_B, fileId)).toBeUndefined();
          expect((await store.get(ACCOUNT_A, fileId))?.record).toStrictEqual(inA);
          expectBytes(await store.getArtifact(ACCOUNT_A, fileId, 'tokens.json'), bytes(10));
        }));

      it('treats account ids that look like paths as plain ids', () =>
        withStore(async (store) => {
          const record = makeRecord({ accountId: '../account-a' });
          await store.put(record, bytes(1));
          expect(await store.stat('../account-a', record.fileId)).toStrictEqual(record);
          expect(await store.stat(ACCOUNT_A, record.fileId)).toBeUndefined();
          expect(await store.list(ACCOUNT_A)).toEqual([]);
        }));
    });

    describe('delete', () => {
      it('removes the file and its artifacts and reports whether it was there', () =>
        withStore(async (store) => {
          const record = makeRecord();
          const other = makeRecord();
          await store.put(record, bytes(1, 2, 3));
          await store.put(other, bytes(4));
          await store.putArtifact(ACCOUNT_A, record.fileId, 'tokens.json', bytes(7));
          await store.putArtifact(ACCOUNT_A, record.fileId, 'layout.bin', bytes(8));

          expect(await store.delete(ACCOUNT_A, record.fileId)).toBe(true);
          expect(await store.get(ACCOUNT_A, record.fileId)).toBeUndefined();
          expect(await store.stat(ACCOUNT_A, record.fileId)).toBeUndefined();
          expect(await store.getArtifact(ACCOUNT_A, record.fileId, 'tokens.json')).toBeUndefined();
          expect(await store.getArtifact(ACCOUNT_A, record.fileId, 'layout.bin')).toBeUndefined();
          expect(await store.list(ACCOUNT_A)).toStrictEqual([other]);
          expect(await store.delete(ACCOUNT_A, record.fileId)).toBe(false);
          expect(await store.putArtifact(ACCOUNT_A, record.fileId, 'tokens.json', bytes(9))).toBe(false);

          // Putting the file again does not bring the old artifacts back.
          await store.put(record, bytes(1, 2, 3));
          expect(await store.getArtifact(ACCOUNT_A, record.fileId, 'tokens.json')).toBeUndefined();
          expect(await store.getArtifact(ACCOUNT_A, record.fileId, 'layout.bin')).toBeUndefined();

          // The other file is untouched.
          expectBytes((await store.get(ACCOUNT_A, other.fileId))?.content, bytes(4));
        }));

      it(`reports true to ${exclusiveDelete ? 'exactly' : 'at least'} one of two concurrent deletes`, () =>
        withStore(async (store) => {
          const record = makeRecord();
          await store.put(record, bytes(1));
          const results = await Promise.all([
            store.delete(ACCOUNT_A, record.fileId),
            store.delete(ACCOUNT_A, record.fileId),
          ]);
          if (exclusiveDelete) expect(results.filter((r) => r)).toHaveLength(1);
          else expect(results.filter((r) => r).length).toBeGreaterThanOrEqual(1);
          expect(await store.get(ACCOUNT_A, record.fileId)).toBeUndefined();
        }));
    });

    describe('list', () => {
      it('returns the records of one account, oldest upload first, then by file id', () =>
        withStore(async (store) => {
          const sameTime = '2024-05-02T08:30:00.000Z';
          const [idLow, idHigh] = [randomUUID(), randomUUID()].sort();
          const newest = makeRecord({ uploadedAt: '2025-01-01T00:00:00.000Z' });
          const oldest = makeRecord({ uploadedAt: '2023-12-31T23:59:59.999Z' });
          const tieHigh = makeRecord({ fileId: idHigh as string, uploadedAt: sameTime });
          const tieLow = makeRecord({ fileId: idLow as string, uploadedAt: sameTime });
          const middle = makeRecord({ uploadedAt: '2024-05-02T08:30:00.001Z' });
          const foreign = makeRecord({ accountId: ACCOUNT_B, uploadedAt: '2024-01-01T00:00:00.000Z' });
          for (const record of [newest, tieHigh, foreign, middle, oldest, tieLow]) {
            await store.put(record, bytes(1, 2, 3));
          }

          expect(await store.list(ACCOUNT_A)).toStrictEqual([oldest, tieLow, tieHigh, middle, newest]);
          expect(await store.list(ACCOUNT_B)).toStrictEqual([foreign]);
          expect(await store.list('account-c')).toEqual([]);
        }));

      it('returns an empty list for an account without files', () =>
        withStore(async (store) => {
          expect(await store.list(ACCOUNT_A)).toEqual([]);
        }));
    });

    describe('artifacts', () => {
      it('stores and returns artifacts of an existing file', () =>
        withStore(async (store) => {
          const record = makeRecord();
          await store.put(record, bytes(1, 2, 3));
          expect(await store.putArtifact(ACCOUNT_A, record.fileId, 'tokens.json', allBytes())).toBe(true);
          expect(await store.putArtifact(ACCOUNT_A, record.fileId, 'page-1.png', bytes(42))).toBe(true);
          expectBytes(await store.getArtifact(ACCOUNT_A, record.fileId, 'tokens.json'), allBytes());
          expectBytes(await store.getArtifact(ACCOUNT_A, record.fileId, 'page-1.png'), bytes(42));
          expect(await store.getArtifact(ACCOUNT_A, record.fileId, 'missing.json')).toBeUndefined();
          // Artifacts do not change the file itself.
          expectBytes((await store.get(ACCOUNT_A, record.fileId))?.content, bytes(1, 2, 3));
          expect(await store.list(ACCOUNT_A)).toStrictEqual([record]);
        }));

      it('returns false for an artifact of a missing file and stores nothing', () =>
        withStore(async (store) => {
          const fileId = randomUUID();
          expect(await store.putArtifact(ACCOUNT_A, fileId, 'tokens.json', bytes(1))).toBe(false);
          expect(await store.getArtifact(ACCOUNT_A, fileId, 'tokens.json')).toBeUndefined();
          expect(await store.get(ACCOUNT_A, fileId)).toBeUndefined();
          expect(await store.list(ACCOUNT_A)).toEqual([]);
        }));

      it('overwrites an artifact with the same name', () =>
        withStore(async (store) => {
          const record = makeRecord();
          await store.put(record, bytes(1));
          await store.putArtifact(ACCOUNT_A, record.fileId, 'tokens.json', allBytes());
          expect(await store.putArtifact(ACCOUNT_A, record.fileId, 'tokens.json', bytes(3, 2))).toBe(true);
          expectBytes(await store.getArtifact(ACCOUNT_A, record.fileId, 'tokens.json'), bytes(3, 2));
        }));

      it('accepts names at the edges of the allowed pattern', () =>
        withStore(async (store) => {
          const record = makeRecord();
          await store.put(record, bytes(1));
          for (const name of ['a', '0', 'a'.repeat(64), 'tokens.v1.json', 'x_y-z.0']) {
            expect(await store.putArtifact(ACCOUNT_A, record.fileId, name, bytes(name.length % 256))).toBe(
              true,
            );
            expectBytes(await store.getArtifact(ACCOUNT_A, record.fileId, name), bytes(name.length % 256));
          }
        }));
    });

    describe('validation', () => {
      const badIds = [
        '../etc/passwd',
        'ABC',
        '',
        '.',
        '..',
        'a/b',
        randomUUID().toUpperCase(),
        `${randomUUID()}\n`,
        ` ${randomUUID()}`,
        `${randomUUID()}/..`,
        `../${randomUUID()}`,
        randomUUID().replace(/-/g, ''),
      ];

      it('refuses an invalid file id in every method with INVALID_ARGUMENT', () =>
        withStore(async (store) => {
          for (const fileId of badIds) {
            await expectInvalidArgument(() => store.put(makeRecord({ fileId }), bytes(1)));
            await expectInvalidArgument(() => store.get(ACCOUNT_A, fileId));
            await expectInvalidArgument(() => store.stat(ACCOUNT_A, fileId));
            await expectInvalidArgument(() => store.delete(ACCOUNT_A, fileId));
            await expectInvalidArgument(() => store.putArtifact(ACCOUNT_A, fileId, 'tokens.json', bytes(1)));
            await expectInvalidArgument(() => store.getArtifact(ACCOUNT_A, fileId, 'tokens.json'));
          }
          expect(await store.list(ACCOUNT_A)).toEqual([]);
        }));

      it('refuses an invalid artifact name with INVALID_ARGUMENT, for existing and missing files', () =>
        withStore(async (store) => {
          const record = makeRecord();
          await store.put(record, bytes(1));
          const badNames = [
            '../x',
            'a/b',
            '',
            '.',
            '..',
            '.hidden',
            '-x',
            '_x',
            'Tokens.json',
            'a'.repeat(65),
            'a b',
            'a\\b',
            'x\n',
            '../../record.json',
          ];
          for (const fileId of [record.fileId, randomUUID()]) {
            for (const name of badNames) {
              await expectInvalidArgument(() => store.putArtifact(ACCOUNT_A, fileId, name, bytes(1)));
              await expectInvalidArgument(() => store.getArtifact(ACCOUNT_A, fileId, name));
            }
          }
          // The refused writes changed nothing.
          const got = await store.get(ACCOUNT_A, record.fileId);
          expect(got?.record).toStrictEqual(record);
          expectBytes(got?.content, bytes(1));
        }));
    });

    describe('isolation of memory', () => {
      it('is not affected by changes to the buffers passed in', () =>
        withStore(async (store) => {
          const record = makeRecord();
          const content = bytes(1, 2, 3);
          const artifact = bytes(4, 5);
          await store.put(record, content);
          await store.putArtifact(ACCOUNT_A, record.fileId, 'tokens.json', artifact);
          content.fill(0);
          artifact.fill(0);
          expectBytes((await store.get(ACCOUNT_A, record.fileId))?.content, bytes(1, 2, 3));
          expectBytes(await store.getArtifact(ACCOUNT_A, record.fileId, 'tokens.json'), bytes(4, 5));
        }));

      it('is not affected by changes to a Buffer passed in', () =>
        withStore(async (store) => {
          const record = makeRecord();
          const content = Buffer.from([1, 2, 3]);
          await store.put(record, content);
          await store.putArtifact(ACCOUNT_A, record.fileId, 'tokens.json', content);
          content.fill(0);
          expectBytes((await store.get(ACCOUNT_A, record.fileId))?.content, bytes(1, 2, 3));
          expectBytes(await store.getArtifact(ACCOUNT_A, record.fileId, 'tokens.json'), bytes(1, 2, 3));
        }));

      it('is not affected by changes to the buffers it returned', () =>
        withStore(async (store) => {
          const record = makeRecord();
          await store.put(record, bytes(1, 2, 3));
          await store.putArtifact(ACCOUNT_A, record.fileId, 'tokens.json', bytes(4, 5));
          (await store.get(ACCOUNT_A, record.fileId))?.content.fill(0);
          (await store.getArtifact(ACCOUNT_A, record.fileId, 'tokens.json'))?.fill(0);
          expectBytes((await store.get(ACCOUNT_A, record.fileId))?.content, bytes(1, 2, 3));
          expectBytes(await store.getArtifact(ACCOUNT_A, record.fileId, 'tokens.json'), bytes(4, 5));
        }));

      it('is not affected by changes to records passed in or returned', () =>
        withStore(async (store) => {
          const record = makeRecord({ name: 'a.pdf', metadata: { tags: ['x'] } });
          const expected = structuredClone(record);
          await store.put(record, bytes(1));
          record.name = 'changed.pdf';
          (record.metadata['tags'] as string[]).push('y');

          const got = await store.get(ACCOUNT_A, record.fileId);
          expect(got?.record).toStrictEqual(expected);
          if (got !== undefined) got.record.size = 999;
          const stat = await store.stat(ACCOUNT_A, record.fileId);
          expect(stat).toStrictEqual(expected);
          if (stat !== undefined) stat.metadata['extra'] = true;
          const listed = await store.list(ACCOUNT_A);
          expect(listed).toStrictEqual([expected]);
          listed[0]!.pageCount = 7;
          expect(await store.stat(ACCOUNT_A, record.fileId)).toStrictEqual(expected);
          expect(await store.list(ACCOUNT_A)).toStrictEqual([expected]);
        }));
    });

    describe('concurrency', () => {
      it('keeps every file of concurrent puts of different files readable', () =>
        withStore(async (store) => {
          const files = Array.from({ length: 20 }, (_, i) => ({
            record: makeRecord({
              accountId: i % 2 === 0 ? ACCOUNT_A : ACCOUNT_B,
              uploadedAt: `2024-05-01T10:00:${String(i).padStart(2, '0')}.000Z`,
              size: i + 1,
            }),
            content: Uint8Array.from({ length: i + 1 }, (_, j) => (i * 7 + j) % 256),
          }));
          await Promise.all(files.map(({ record, content }) => store.put(record, content)));
          await Promise.all(
            files.map(({ record }, i) =>
              store.putArtifact(record.accountId, record.fileId, 'tokens.json', bytes(i)),
            ),
          );

          for (const [i, { record, content }] of files.entries()) {
            const got = await store.get(record.accountId, record.fileId);
            expect(got?.record).toStrictEqual(record);
            expectBytes(got?.content, content);
            expectBytes(await store.getArtifact(record.accountId, record.fileId, 'tokens.json'), bytes(i));
          }
          const inA = files.filter((_, i) => i % 2 === 0).map((f) => f.record);
          const inB = files.filter((_, i) => i % 2 === 1).map((f) => f.record);
          expect(await store.list(ACCOUNT_A)).toStrictEqual(inA);
          expect(await store.list(ACCOUNT_B)).toStrictEqual(inB);
        }));
    });
  });
}
