/**
 * A real S3-API server on a loopback port for the tests and the benchmark, as throwaway-postgres.ts is
 * for PostgreSQL: s3rver (a dev dependency from npm, the S3 REST API over a directory) with a bucket
 * made, and the options a docex S3 file store needs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
// @ts-expect-error s3rver ships no types; its constructor and run/close are all the tests use.
import S3rver from 's3rver';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}

export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The options of createS3FileStore for this server (`prefix` to keep tests apart). */
  options(prefix?: string): {
    bucket: string;
    endpoint: string;
    region: string;
    forcePathStyle: boolean;
    credentials: { accessKeyId: string; secretAccessKey: string };
    prefix?: string;
  };
  client: S3Client;
  stop(): Promise<void>;
}

/** s3rver accepts these (any signed request is accepted; the SDK must sign). */
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3Server(bucket = 'docex-test'): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'docex-s3rver-'));
  const server = new (S3rver as new (options: object) => S3rverInstance)({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3_CREDENTIALS,
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    client,
    options: (prefix) => ({
      bucket,
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3_CREDENTIALS,
      ...(prefix ? { prefix } : {}),
    }),
    async stop() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
