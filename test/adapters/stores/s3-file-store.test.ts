/**
 * The S3 file store against a real S3-API server on loopback (s3rver): the FileStore contract, the
 * layout, multipart uploads of large files, prefixes that keep two stores on one bucket apart, and a
 * put cut short after its content (no record) reading as absent.
 */
import { createHash, randomUUID } from 'node:crypto';

import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createS3FileStore } from '../../../src/adapters/stores/s3-file-store.js';
import { DocexError } from '../../../src/core/errors.js';
import { startS3Server, type S3Server } from '../../../support/throwaway-s3.js';
import { describeFileStoreContract, makeRecord } from '../../ports/file-store.contract.js';

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.stop();
});

// Each contract test gets a prefix of its own on the one bucket. S3 has no delete that fails when the
// object is already gone (nor does this server take conditional requests): two concurrent deletes of
// one file may both report that it was there.
describeFileStoreContract(
  's3',
  async () => ({ store: createS3FileStore(s3.options(`contract-${randomUUID()}`)) }),
  { exclusiveDelete: false },
);

const hash = (accountId: string) => createHash('sha256').update(accountId).digest('hex').slice(0, 32);

async function keys(prefix: string): Promise<string[]> {
  const page = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((c) => c.Key!).sort();
}

describe('createS3FileStore', () => {
  it('uses the documented layout under its prefix', async () => {
    const store = createS3FileStore(s3.options('layout/'));
    const record = makeRecord({ accountId: 'acme' });
    await store.put(record, new Uint8Array([1, 2, 3]));
    await store.putArtifact('acme', record.fileId, 'page-1-110.png', new Uint8Array([9]));
    const base = `layout/${hash('acme')}/${record.fileId}/`;
    expect(await keys('layout/')).toEqual([
      `${base}artifacts/page-1-110.png`,
      `${base}content.bin`,
      `${base}record.json`,
    ]);
    const stored = await s3.client.send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: `${base}record.json` }),
    );
    expect(JSON.parse(await stored.Body!.transformToString())).toEqual(record);
  });

  it('sends a large file as a multipart upload and reads it back whole', async () => {
    const store = createS3FileStore({ ...s3.options('large'), partSize: 5 * 1024 * 1024 });
    const record = makeRecord({ accountId: 'acme' });
    const content = new Uint8Array(12 * 1024 * 1024 + 17);
    for (let i = 0; i < content.length; i += 4096) content[i] = (i / 4096) % 251;
    await store.put(record, content);
    const read = await store.get('acme', record.fileId);
    expect(read!.content.byteLength).toBe(content.byteLength);
    expect(Buffer.compare(Buffer.from(read!.content), Buffer.from(content))).toBe(0);
  });

  it('keeps two stores on one bucket apart by prefix', async () => {
    const a = createS3FileStore(s3.options('tenant-a'));
    const b = createS3FileStore(s3.options('tenant-b'));
    const record = makeRecord({ accountId: 'acme' });
    await a.put(record, new Uint8Array([1]));
    expect(await b.stat('acme', record.fileId)).toBeUndefined();
    expect(await b.list('acme')).toEqual([]);
    expect(await a.list('acme')).toEqual([record]);
  });

  it('a put cut short after its content (no record yet) reads as absent, and a later put replaces it', async () => {
    const store = createS3FileStore(s3.options('cut'));
    const record = makeRecord({ accountId: 'acme' });
    await s3.client.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: `cut/${hash('acme')}/${record.fileId}/content.bin`,
        Body: 'half',
      }),
    );
    expect(await store.stat('acme', record.fileId)).toBeUndefined();
    expect(await store.get('acme', record.fileId)).toBeUndefined();
    expect(await store.list('acme')).toEqual([]);
    expect(await store.putArtifact('acme', record.fileId, 'x', new Uint8Array([1]))).toBe(false);
    await store.put(record, new Uint8Array([7]));
    expect((await store.get('acme', record.fileId))!.content).toEqual(new Uint8Array([7]));
  });

  it('refuses a bucket name S3 would refuse', () => {
    expect(() => createS3FileStore({ bucket: 'No_Such' })).toThrow(DocexError);
  });
});
