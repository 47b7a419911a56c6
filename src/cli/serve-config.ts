import { Ajv } from 'ajv';

import type { AccountLimits } from '../core/accounts.js';
import type { OcrEngineChoice } from '../default-adapters.js';

/** Levels of `--log-level` (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What `docex serve` runs with, once argv, the environment and the config file are read. */
export interface ServeConfig {
  port: number;
  host: string;
  dataDir: string;
  namespace?: string;
  ocrEngine: OcrEngineChoice;
  databaseUrl?: string;
  databaseSchema?: string;
  files?: string;
  tokenSecret?: string;
  webhooksAllowPrivate: boolean;
  trustProxy: boolean;
  logLevel: LogLevel;
  metrics: { enabled: boolean; token?: string };
  /** Limits of every account not configured otherwise. */
  limits: Partial<AccountLimits>;
  /** Limits by account. */
  accounts: Record<string, { limits: Partial<AccountLimits> }>;
  /** `id:secret` or `id:secret:account`. */
  clients: string[];
}

/** The options of `docex serve` as parseArgs gives them. */
export interface ServeArgs {
  config?: string | undefined;
  port?: string | undefined;
  host?: string | undefined;
  'data-dir'?: string | undefined;
  client?: string[] | undefined;
  'clients-file'?: string | undefined;
  namespace?: string | undefined;
  'ocr-engine'?: string | undefined;
  'webhooks-allow-private'?: boolean | undefined;
  'trust-proxy'?: boolean | undefined;
  'database-url'?: string | undefined;
  'database-schema'?: string | undefined;
  files?: string | undefined;
  'log-level'?: string | undefined;
  'no-metrics'?: boolean | undefined;
}

/** A problem with the configuration: `docex serve` says it and exits 2 without starting. */
export class ServeConfigError extends Error {}

const LIMITS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    maxFileBytes: { type: 'integer', minimum: 1 },
    maxPages: { type: 'integer', minimum: 1 },
    pagesPerDay: { type: 'integer', minimum: 0 },
    pagesPerMonth: { type: 'integer', minimum: 0 },
  },
};

/** The config file (JSON): every key optional; an unknown key is an error, so a typo is not ignored. */
const FILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    port: { type: 'integer', minimum: 0, maximum: 65535 },
    host: { type: 'string', minLength: 1 },
    dataDir: { type: 'string', minLength: 1 },
    namespace: { type: 'string', minLength: 1 },
    ocrEngine: { enum: ['auto', 'native', 'wasm'] },
    databaseUrl: { type: 'string', minLength: 1 },
    databaseSchema: { type: 'string', minLength: 1 },
    files: { type: 'string', minLength: 1 },
    tokenSecretFile: { type: 'string', minLength: 1 },
    webhooksAllowPrivate: { type: 'boolean' },
    trustProxy: { type: 'boolean' },
    logLevel: { enum: [...LOG_LEVELS] },
    metrics: {
      type: 'object',
      additionalProperties: false,
      properties: { enabled: { type: 'boolean' }, token: { type: 'string', minLength: 16 } },
    },
    limits: LIMITS_SCHEMA,
    accounts: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['limits'],
        properties: { limits: LIMITS_SCHEMA },
      },
    },
    clients: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'secret'],
        properties: {
          id: { type: 'string', minLength: 1 },
          secret: { type: 'string', minLength: 16 },
          account: { type: 'string', minLength: 1 },
        },
      },
    },
    clientsFile: { type: 'string', minLength: 1 },
  },
} as const;

interface ConfigFile {
  port?: number;
  host?: string;
  dataDir?: string;
  namespace?: string;
  ocrEngine?: OcrEngineChoice;
  databaseUrl?: string;
  databaseSchema?: string;
  files?: string;
  tokenSecretFile?: string;
  webhooksAllowPrivate?: boolean;
  trustProxy?: boolean;
  logLevel?: LogLevel;
  metrics?: { enabled?: boolean; token?: string };
  limits?: Partial<AccountLimits>;
  accounts?: Record<string, { limits: Partial<AccountLimits> }>;
  clients?: Array<{ id: string; secret: string; account?: string }>;
  clientsFile?: string;
}

/** An environment switch: 1, true, yes or on; 0, false, no or off; anything else is an error. */
function switchOf(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^(1|true|yes|on)$/i.test(value.trim())) return true;
  if (/^(0|false|no|off)$/i.test(value.trim())) return false;
  throw new ServeConfigError(`${name} must be on or off, not "${value}"`);
}

/** Clients as a file or a variable holds them: `id:secret[:account]`, one per line (or comma separated); # starts a comment. */
export function parseClientList(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

/**
 * `docex serve`'s settings from, in this order of precedence: its options, the environment
 * (`DOCEX_*`, `PORT`, `DATABASE_URL`), the config file (`--config` or `DOCEX_CONFIG`, JSON), and the
 * defaults. Secrets never need argv: clients come from `--clients-file`/`DOCEX_CLIENTS_FILE`,
 * `DOCEX_CLIENTS` or the config file, the token key from `DOCEX_TOKEN_SECRET`,
 * `DOCEX_TOKEN_SECRET_FILE` or the file's `tokenSecretFile`, the metrics token from
 * `DOCEX_METRICS_TOKEN` or the file. `readText` reads a file named by the configuration.
 */
export function resolveServeConfig(
  args: ServeArgs,
  env: Record<string, string | undefined>,
  readText: (path: string) => string,
): ServeConfig {
  const read = (path: string, what: string): string => {
    try {
      return readText(path);
    } catch (error) {
      throw new ServeConfigError(`${what} ${path} cannot be read: ${(error as Error).message}`);
    }
  };
  const configPath = args.config ?? nonEmpty(env.DOCEX_CONFIG);
  let file: ConfigFile = {};
  if (configPath) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(read(configPath, 'the config file'));
    } catch (error) {
      if (error instanceof ServeConfigError) throw error;
      throw new ServeConfigError(`the config file ${configPath} is not JSON: ${(error as Error).message}`);
    }
    const validate = new Ajv({ allErrors: true, strict: true }).compile(FILE_SCHEMA);
    if (!validate(parsed)) {
      const problems = (validate.errors ?? []).map(
        (e) =>
          `${e.instancePath || '/'} ${e.message ?? 'is not valid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
      );
      throw new ServeConfigError(`the config file ${configPath}: ${problems.join('; ')}`);
    }
    file = parsed as ConfigFile;
  }

  const portText = args.port ?? nonEmpty(env.DOCEX_PORT) ?? nonEmpty(env.PORT);
  const port = portText === undefined ? (file.port ?? 8080) : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ServeConfigError('--port must be a port number');

  const ocrEngine = args['ocr-engine'] ?? nonEmpty(env.DOCEX_OCR_ENGINE) ?? file.ocrEngine ?? 'auto';
  if (ocrEngine !== 'auto' && ocrEngine !== 'native' && ocrEngine !== 'wasm')
    throw new ServeConfigError('--ocr-engine must be auto, native or wasm');

  const logLevel = args['log-level'] ?? nonEmpty(env.DOCEX_LOG_LEVEL) ?? file.logLevel ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
    throw new ServeConfigError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);

  const metricsEnabled =
    args['no-metrics'] === true
      ? false
      : (switchOf('DOCEX_METRICS', env.DOCEX_METRICS) ?? file.metrics?.enabled ?? true);
  const metricsToken = nonEmpty(env.DOCEX_METRICS_TOKEN) ?? file.metrics?.token;
  if (metricsToken !== undefined && metricsToken.length < 16)
    throw new ServeConfigError('the metrics token (DOCEX_METRICS_TOKEN) must have at least 16 characters');

  const tokenSecretFile = nonEmpty(env.DOCEX_TOKEN_SECRET_FILE) ?? file.tokenSecretFile;
  const tokenSecret =
    nonEmpty(env.DOCEX_TOKEN_SECRET) ??
    (tokenSecretFile ? read(tokenSecretFile, 'the token secret file').trim() : undefined);

  const clientsFile = args['clients-file'] ?? nonEmpty(env.DOCEX_CLIENTS_FILE) ?? file.clientsFile;
  const clients = [
    ...(file.clients ?? []).map((c) => [c.id, c.secret, ...(c.account ? [c.account] : [])].join(':')),
    ...(clientsFile ? parseClientList(read(clientsFile, 'the clients file')) : []),
    ...parseClientList(env.DOCEX_CLIENTS ?? ''),
    ...(args.client ?? []),
  ];

  const databaseUrl =
    args['database-url'] ??
    nonEmpty(env.DOCEX_DATABASE_URL) ??
    nonEmpty(env.DATABASE_URL) ??
    file.databaseUrl;
  const databaseSchema =
    args['database-schema'] ?? nonEmpty(env.DOCEX_DATABASE_SCHEMA) ?? file.databaseSchema;
  const files = args.files ?? nonEmpty(env.DOCEX_FILES) ?? file.files;
  const namespace = args.namespace ?? nonEmpty(env.DOCEX_NAMESPACE) ?? file.namespace;
  return {
    port,
    host: args.host ?? nonEmpty(env.DOCEX_HOST) ?? file.host ?? '127.0.0.1',
    dataDir: args['data-dir'] ?? nonEmpty(env.DOCEX_DATA_DIR) ?? file.dataDir ?? './docex-data',
    ...(namespace ? { namespace } : {}),
    ocrEngine,
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(databaseSchema ? { databaseSchema } : {}),
    ...(files ? { files } : {}),
    ...(tokenSecret ? { tokenSecret } : {}),
    webhooksAllowPrivate:
      args['webhooks-allow-private'] === true ||
      (switchOf('DOCEX_WEBHOOKS_ALLOW_PRIVATE', env.DOCEX_WEBHOOKS_ALLOW_PRIVATE) ??
        file.webhooksAllowPrivate ??
        false),
    trustProxy:
      args['trust-proxy'] === true ||
      (switchOf('DOCEX_TRUST_PROXY', env.DOCEX_TRUST_PROXY) ?? file.trustProxy ?? false),
    logLevel: logLevel as LogLevel,
    metrics: {
      enabled: metricsEnabled,
      ...(metricsToken ? { token: metricsToken } : {}),
    },
    limits: { ...file.limits },
    accounts: { ...file.accounts },
    clients,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
