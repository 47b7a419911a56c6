import path from 'node:path';

import { createSqlitePersistence } from '../adapters/persistence/sqlite-persistence.js';
import { createFsFileStore } from '../adapters/stores/fs-file-store.js';
import type { FileStore } from '../ports/file-store.js';
import type { EnginePersistence } from '../ports/engine-persistence.js';
import type * as S3Store from '../adapters/stores/s3-file-store.js';
import type * as PostgresPersistence from '../adapters/persistence/postgres-persistence.js';

type S3StoreModule = typeof S3Store;
type PostgresModule = typeof PostgresPersistence;

/** Where `docex serve` keeps its state: the embedded defaults, or shared storage for several machines. */
export interface ServeStorage {
  persistence: EnginePersistence;
  files: FileStore;
  /** Runs once the server listens (the fs store sweeps what a killed run half-wrote). */
  afterStart(): Promise<void>;
  /** Says where things are, for the start-up line. */
  describe: string;
}

/**
 * `s3://bucket/prefix?endpoint=URL&region=R&path-style=1`: the object store's bucket and key prefix,
 * with the endpoint of an S3-compatible server and path-style URLs when it needs them. Credentials come
 * from the AWS SDK's usual places (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, a role).
 */
export function parseS3Url(text: string): {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region?: string;
  forcePathStyle: boolean;
} {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--files takes a directory or s3://bucket/prefix, not "${text}"`);
  }
  if (url.protocol !== 's3:' || !url.hostname) {
    throw new Error(`--files takes a directory or s3://bucket/prefix, not "${text}"`);
  }
  const endpoint =
    url.searchParams.get('endpoint') ?? process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
  const region = url.searchParams.get('region') ?? undefined;
  const pathStyle = url.searchParams.get('path-style');
  return {
    bucket: url.hostname,
    prefix: decodeURIComponent(url.pathname.replace(/^\/+/, '')),
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
    forcePathStyle: pathStyle === '1' || pathStyle === 'true',
  };
}

/**
 * The persistence `docex serve` (and `docex reviewers`) keeps its state in: SQLite in the data
 * directory, or PostgreSQL when `databaseUrl` is given (pg, an optional peer, loaded only then).
 */
export async function openServePersistence(options: {
  dataDir: string;
  databaseUrl?: string | undefined;
  databaseSchema?: string | undefined;
}): Promise<EnginePersistence> {
  let persistence: EnginePersistence;
  if (options.databaseUrl) {
    // pg is an optional peer dependency: loaded only when PostgreSQL is asked for.
    let module: PostgresModule;
    try {
      module = await import('../adapters/persistence/postgres-persistence.js');
    } catch (error) {
      throw new Error(`PostgreSQL needs the pg package: npm install pg (${(error as Error).message})`);
    }
    persistence = module.createPostgresPersistence({
      connectionString: options.databaseUrl,
      ...(options.databaseSchema ? { schema: options.databaseSchema } : {}),
    });
  } else {
    persistence = createSqlitePersistence({ path: path.join(options.dataDir, 'docex.db') });
  }
  return persistence;
}

/**
 * The storage `docex serve` runs on: SQLite and files under the data directory by default;
 * `databaseUrl` (postgres://) for jobs, results, tasks, accounts and clients shared by several
 * processes; `files` a directory or an s3:// URL for the files. The S3 adapter (and the AWS SDK, an
 * optional peer dependency) is loaded only when asked for.
 */
export async function openServeStorage(options: {
  dataDir: string;
  databaseUrl?: string | undefined;
  databaseSchema?: string | undefined;
  files?: string | undefined;
}): Promise<ServeStorage> {
  const persistence = await openServePersistence(options);
  const where = options.databaseUrl ? `PostgreSQL (schema ${options.databaseSchema ?? 'docex'})` : 'SQLite';
  if (options.files?.startsWith('s3://')) {
    const s3 = parseS3Url(options.files);
    let module: S3StoreModule;
    try {
      module = await import('../adapters/stores/s3-file-store.js');
    } catch (error) {
      await persistence.close();
      throw new Error(
        'files on S3 need the AWS SDK: npm install @aws-sdk/client-s3 @aws-sdk/lib-storage' +
          ` (${(error as Error).message})`,
      );
    }
    return {
      persistence,
      files: module.createS3FileStore(s3),
      afterStart: async () => undefined,
      describe: `${where}, files in s3://${s3.bucket}/${s3.prefix}`,
    };
  }
  const dir = options.files ?? path.join(options.dataDir, 'files');
  const files = createFsFileStore({ dir });
  return {
    persistence,
    files,
    afterStart: async () => {
      await files.sweepOrphans();
    },
    describe: `${where}, files in ${path.resolve(dir)}`,
  };
}
