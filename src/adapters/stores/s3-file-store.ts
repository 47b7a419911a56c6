import { createHash } from 'node:crypto';

import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

import { DocexError } from '../../core/errors.js';
import type { FileRecord } from '../../core/types.js';
import {
  assertArtifactName,
  assertFileId,
  compareRecords,
  parseStoredRecord,
  UUID,
  type FileStore,
} from '../../ports/file-store.js';
import { mapLimit } from '../../core/map-limit.js';

export interface S3FileStoreOptions {
  bucket: string;
  /** Prefix of every key (`docex/`); a trailing slash is added when missing. Default none. */
  prefix?: string;
  /** A client of the host's (then `endpoint`, `region`, `credentials` and `forcePathStyle` are unused). */
  client?: S3Client;
  /** An S3-compatible server's URL (MinIO, Ceph, R2...); default AWS's endpoint for the region. */
  endpoint?: string;
  /** Default: the SDK's (AWS_REGION), else us-east-1. */
  region?: string;
  /** Default: the SDK's chain (environment, profile, instance role). */
  credentials?: S3ClientConfig['credentials'];
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible servers need. */
  forcePathStyle?: boolean;
  /** Files larger than this go up in parts of this size (multipart upload). Default 8 MB. */
  partSize?: number;
}

const RECORD = 'record.json';
const CONTENT = 'content.bin';
const ARTIFACTS = 'artifacts/';
const MIN_PART = 5 * 1024 * 1024;

/** Absence as the SDK reports it: NoSuchKey (GET), NotFound (HEAD), or a bare 404. */
function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * A FileStore on S3 or any S3-compatible object store, for several processes on several machines:
 * `<prefix><first 32 hex chars of sha256(accountId)>/<fileId>/{record.json, content.bin, artifacts/<name>}`.
 *
 * A PUT of one object is atomic in S3, so `put` writes the content first and the record last: a file
 * whose record is absent (a put cut short, or in progress) does not exist for readers. Re-putting a
 * file first removes its record and artifacts. Large contents go up as a multipart upload; an upload
 * cut short leaves parts that the bucket's lifecycle rule for incomplete multipart uploads removes
 * (docs/scale-out.md). Reads check that the stored record belongs to the account asked for.
 */
export function createS3FileStore(options: S3FileStoreOptions): FileStore {
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(options.bucket)) {
    throw new DocexError('INVALID_ARGUMENT', `"${options.bucket}" is not a valid bucket name.`);
  }
  const bucket = options.bucket;
  const prefix = options.prefix ? options.prefix.replace(/^\/+/, '').replace(/\/*$/, '/') : '';
  const partSize = Math.max(MIN_PART, options.partSize ?? 8 * 1024 * 1024);
  const client =
    options.client ??
    new S3Client({
      region: options.region ?? process.env.AWS_REGION ?? 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      forcePathStyle: options.forcePathStyle === true,
    });

  const accountPrefix = (accountId: string): string =>
    `${prefix}${createHash('sha256').update(accountId, 'utf8').digest('hex').slice(0, 32)}/`;
  const fileKey = (accountId: string, fileId: string, name: string): string =>
    `${accountPrefix(accountId)}${fileId}/${name}`;

  async function read(key: string): Promise<Uint8Array | undefined> {
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      // A new array: the caller owns it.
      return answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array(0);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async function write(key: string, body: Uint8Array | string, contentType: string): Promise<void> {
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    if (size <= partSize) {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }),
      );
      return;
    }
    await new Upload({
      client,
      params: { Bucket: bucket, Key: key, Body: body, ContentType: contentType },
      partSize,
      queueSize: 4,
      leavePartsOnError: false,
    }).done();
  }

  /** Every key under a prefix (ListObjectsV2 pages of 1,000). */
  async function keysUnder(under: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: under,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async function removeAll(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      if (batch.length === 1) {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: batch[0] }));
        continue;
      }
      await client.send(
        new DeleteObjectsCommand({
          Bucket: bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
  }

  async function readRecord(accountId: string, fileId: string): Promise<FileRecord | undefined> {
    const bytes = await read(fileKey(accountId, fileId, RECORD));
    return bytes === undefined ? undefined : parseStoredRecord(bytes, accountId, fileId);
  }

  return {
    async put(record, content) {
      assertFileId(record.fileId);
      const base = fileKey(record.accountId, record.fileId, '');
      // A file put again: its old record first (readers then see nothing), its artifacts after.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `${base}${RECORD}` }));
      await removeAll(await keysUnder(`${base}${ARTIFACTS}`));
      await write(`${base}${CONTENT}`, content, 'application/octet-stream');
      await write(`${base}${RECORD}`, JSON.stringify(record), 'application/json');
    },

    async get(accountId, fileId) {
      assertFileId(fileId);
      const record = await readRecord(accountId, fileId);
      if (record === undefined) return undefined;
      const content = await read(fileKey(accountId, fileId, CONTENT));
      if (content === undefined) return undefined; // deleted meanwhile
      return { record, content };
    },

    async stat(accountId, fileId) {
      assertFileId(fileId);
      return readRecord(accountId, fileId);
    },

    async delete(accountId, fileId) {
      assertFileId(fileId);
      const existed = (await readRecord(accountId, fileId)) !== undefined;
      const keys = await keysUnder(fileKey(accountId, fileId, ''));
      // The record first: a reader never sees a record whose content is gone.
      const record = fileKey(accountId, fileId, RECORD);
      if (keys.includes(record)) await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: record }));
      await removeAll(keys.filter((k) => k !== record));
      return existed;
    },

    async list(accountId) {
      const under = accountPrefix(accountId);
      const ids = new Set<string>();
      for (const key of await keysUnder(under)) {
        const [fileId, name] = key.slice(under.length).split('/');
        if (fileId && name === RECORD && UUID.test(fileId)) ids.add(fileId);
      }
      const records = await mapLimit([...ids], 16, (fileId) => readRecord(accountId, fileId));
      return records.filter((r): r is FileRecord => r !== undefined).sort(compareRecords);
    },

    async putArtifact(accountId, fileId, name, content) {
      assertFileId(fileId);
      assertArtifactName(name);
      if ((await readRecord(accountId, fileId)) === undefined) return false;
      await write(fileKey(accountId, fileId, `${ARTIFACTS}${name}`), content, 'application/octet-stream');
      return true;
    },

    async getArtifact(accountId, fileId, name) {
      assertFileId(fileId);
      assertArtifactName(name);
      if ((await readRecord(accountId, fileId)) === undefined) return undefined;
      return read(fileKey(accountId, fileId, `${ARTIFACTS}${name}`));
    },
  };
}
