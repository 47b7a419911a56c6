import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { pino } from 'pino';
import path from 'node:path';
import { createNodeListener } from '../adapters/http/node-listener.js';
import { nativeTesseractVersion } from '../adapters/ocr/native-tesseract-ocr.js';
import type { OcrEngineChoice } from '../default-adapters.js';
import { createEngine } from '../engine.js';
import type { Engine } from '../engine-types.js';
import { createFetchHandler } from '../http/fetch-handler.js';
import type { AccountLimits } from '../core/accounts.js';
import { logEngine } from '../observability/engine-log.js';
import { createEngineMetrics, type RequestObservation } from '../observability/metrics.js';
import type { Logger } from '../ports/logger.js';
import type { LogLevel } from './serve-config.js';
import { openServeStorage } from './serve-storage.js';

export interface ServeOptions {
  port: number;
  host: string;
  dataDir: string;
  /** `id:secret` or `id:secret:account`. */
  clients: string[];
  namespace?: string;
  /** Which OCR engine reads scans (default auto: the host's tesseract program when it runs). */
  ocrEngine?: OcrEngineChoice;
  /** PostgreSQL (postgres://...) for the state several `serve` processes share; default SQLite in dataDir. */
  databaseUrl?: string;
  /** Schema of docex's tables in PostgreSQL. Default docex. */
  databaseSchema?: string;
  /** Where files go: a directory, or s3://bucket/prefix?endpoint=...&path-style=1. Default dataDir/files. */
  files?: string;
  /**
   * Signing key of access tokens and review sessions (at least 32 bytes). Processes that share the work
   * must share it; default: a key made once in dataDir.
   */
  tokenSecret?: string;
  /** Webhook subscriptions may target loopback and private addresses. Default false. */
  webhooksAllowPrivate?: boolean;
  /** Behind a reverse proxy: the client's address and protocol from X-Forwarded-For/-Proto. Default false. */
  trustProxy?: boolean;
  /** Limits of accounts not configured otherwise (sizes, page quotas), and limits by account. */
  limits?: Partial<AccountLimits>;
  accounts?: Record<string, { limits: Partial<AccountLimits> }>;
  /** `GET /metrics` (default on), with a bearer token when given. */
  metrics?: { enabled: boolean; token?: string };
  /**
   * Requests, job changes and faults (with stacks), as JSON lines. Default: pino at `logLevel` (info)
   * on stdout.
   */
  logger?: Logger;
  logLevel?: LogLevel;
  /** Start-up lines (listening, OCR engine, a client made on first start). Default: the logger at info. */
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  server: Server;
  engine: Engine;
  /** Stops taking connections and work, lets running jobs finish (or leaves them for the next start). */
  close(): Promise<void>;
}

/**
 * The HTTP surface on the embedded defaults: files in DATA/files, jobs, results, rules, tasks, accounts
 * and clients in DATA/docex.db (SQLite), the token signing key in DATA/token-secret. For several
 * processes on several machines: PostgreSQL (`databaseUrl`), files on S3 (`files`), one token secret.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const logger: Logger =
    options.logger ?? pino({ level: options.logLevel ?? 'info', base: { pid: process.pid } });
  const log = options.log ?? ((line: string) => logger.info({}, line));
  mkdirSync(options.dataDir, { recursive: true });
  if (options.tokenSecret !== undefined && Buffer.byteLength(options.tokenSecret) < 32) {
    throw new Error('the token secret (DOCEX_TOKEN_SECRET) must have at least 32 bytes');
  }
  const storage = await openServeStorage(options);
  const engine = createEngine({
    files: storage.files,
    persistence: storage.persistence,
    ...(options.namespace ? { namespace: options.namespace } : {}),
    ...(options.ocrEngine ? { ocrEngine: options.ocrEngine } : {}),
    webhooks: { allowPrivateTargets: options.webhooksAllowPrivate === true },
    ...(options.limits ? { limits: options.limits } : {}),
    // Jobs left by an earlier run are taken up once the server listens: whatever they cost, a
    // restarted server answers first.
    jobs: { resumeOnStart: false },
  });
  // Job changes, and faults for the operator with the stack of what was thrown (never sent to clients).
  const stopLogging = logEngine(engine, logger);
  const metrics = options.metrics?.enabled === false ? undefined : createEngineMetrics(engine);
  await engine.ready;
  for (const [accountId, settings] of Object.entries(options.accounts ?? {}))
    engine.configureAccount(accountId, { limits: settings.limits });
  const credentials = options.clients.map(parseClient);
  for (const c of credentials)
    await engine.createClient(c.accountId, { clientId: c.clientId, clientSecret: c.secret });
  if (credentials.length === 0) {
    const created = await engine.createClient('default');
    log(`created client for account "default": id ${created.clientId} secret ${created.clientSecret}`);
  }
  const handler = createFetchHandler(engine, {
    tokens: { secret: options.tokenSecret ?? tokenSecret(options.dataDir) },
    logger,
    ...(metrics
      ? {
          onRequest: (o: RequestObservation) => metrics.observeRequest(o),
          metrics: { source: metrics, token: options.metrics?.token },
        }
      : {}),
  });
  const server = createServer(createNodeListener(handler, { trustProxy: options.trustProxy === true }));
  // Result requests wait up to 30 s; keep idle sockets a little longer than that.
  server.keepAliveTimeout = 35_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
  log(`docex listening on ${url} (${storage.describe})`);
  const native = options.ocrEngine === 'wasm' ? undefined : await nativeTesseractVersion();
  log(`OCR of scans: ${native ? `the tesseract program ${native} (native)` : 'tesseract.js (WebAssembly)'}`);
  void engine.resumeJobs();
  // Files half-written when an earlier run was killed.
  void storage.afterStart().catch(() => undefined);
  let closing: Promise<void> | undefined;
  return {
    url,
    server,
    engine,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await engine.close();
        server.closeAllConnections();
        await stopped;
        metrics?.close();
        stopLogging();
      })()),
  };
}

function parseClient(text: string): { clientId: string; secret: string; accountId: string } {
  const [clientId, secret, accountId] = text.split(':');
  if (!clientId || !secret) throw new Error(`--client takes ID:SECRET or ID:SECRET:ACCOUNT, not "${text}"`);
  return { clientId, secret, accountId: accountId || 'default' };
}

/** The signing key of access tokens, made once per data directory so tokens survive a restart. */
function tokenSecret(dataDir: string): Uint8Array {
  const file = path.join(dataDir, 'token-secret');
  if (!existsSync(file))
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}
