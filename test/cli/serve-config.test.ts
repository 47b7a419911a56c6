/**
 * `docex serve`'s settings: options beat the environment, the environment beats the config file, the
 * file beats the defaults; secrets (clients, token key, metrics token) come from files or variables;
 * a config file with an unknown key or a wrong type is refused naming the key.
 */
import { describe, expect, it } from 'vitest';

import { parseClientList, resolveServeConfig, ServeConfigError } from '../../src/cli/serve-config.js';

function files(map: Record<string, string>): (path: string) => string {
  return (path) => {
    const text = map[path];
    if (text === undefined) throw new Error('ENOENT: no such file');
    return text;
  };
}

describe('serve configuration', () => {
  it('has defaults for a new machine', () => {
    expect(resolveServeConfig({}, {}, files({}))).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: './docex-data',
      ocrEngine: 'auto',
      webhooksAllowPrivate: false,
      trustProxy: false,
      logLevel: 'info',
      metrics: { enabled: true },
      limits: {},
      accounts: {},
      clients: [],
    });
  });

  it('takes an option over a variable over the file', () => {
    const config = JSON.stringify({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/docex',
      logLevel: 'warn',
      databaseUrl: 'postgres://file/db',
      trustProxy: true,
      metrics: { enabled: false },
    });
    const read = files({ '/etc/docex.json': config });
    const fromFile = resolveServeConfig({ config: '/etc/docex.json' }, {}, read);
    expect(fromFile).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/docex',
      logLevel: 'warn',
      databaseUrl: 'postgres://file/db',
      trustProxy: true,
      metrics: { enabled: false },
    });
    const env = {
      DOCEX_CONFIG: '/etc/docex.json',
      PORT: '9100',
      DOCEX_LOG_LEVEL: 'debug',
      DATABASE_URL: 'postgres://env/db',
      DOCEX_METRICS: 'on',
    };
    expect(resolveServeConfig({}, env, read)).toMatchObject({
      port: 9100,
      logLevel: 'debug',
      databaseUrl: 'postgres://env/db',
      metrics: { enabled: true },
    });
    expect(
      resolveServeConfig({ port: '9200', 'log-level': 'error', 'no-metrics': true }, env, read),
    ).toMatchObject({ port: 9200, logLevel: 'error', metrics: { enabled: false } });
  });

  it('reads clients and secrets from files and variables, never needing argv', () => {
    const read = files({
      '/run/secrets/clients':
        '# id:secret:account\nbilling:billing-secret-0123456789:acme\n\nops:ops-secret-0123456789\n',
      '/run/secrets/token': 'a-token-signing-key-of-at-least-32-bytes\n',
      '/etc/docex.json': JSON.stringify({
        clients: [{ id: 'web', secret: 'web-secret-0123456789', account: 'shop' }],
        tokenSecretFile: '/run/secrets/token',
      }),
    });
    const config = resolveServeConfig(
      { config: '/etc/docex.json' },
      {
        DOCEX_CLIENTS_FILE: '/run/secrets/clients',
        DOCEX_CLIENTS: 'cli:cli-secret-0123456789',
        DOCEX_METRICS_TOKEN: 'scrape-token-0123456789',
      },
      read,
    );
    expect(config.clients).toEqual([
      'web:web-secret-0123456789:shop',
      'billing:billing-secret-0123456789:acme',
      'ops:ops-secret-0123456789',
      'cli:cli-secret-0123456789',
    ]);
    expect(config.tokenSecret).toBe('a-token-signing-key-of-at-least-32-bytes');
    expect(config.metrics).toEqual({ enabled: true, token: 'scrape-token-0123456789' });
    expect(parseClientList('a:b, c:d # note')).toEqual(['a:b', 'c:d']);
  });

  it('carries limits and quotas for all accounts and for one', () => {
    const read = files({
      'c.json': JSON.stringify({
        limits: { maxPages: 50, pagesPerDay: 1000 },
        accounts: { acme: { limits: { pagesPerMonth: 20000 } } },
      }),
    });
    expect(resolveServeConfig({ config: 'c.json' }, {}, read)).toMatchObject({
      limits: { maxPages: 50, pagesPerDay: 1000 },
      accounts: { acme: { limits: { pagesPerMonth: 20000 } } },
    });
  });

  it('refuses a config file that is not JSON, has an unknown key or a wrong type, naming it', () => {
    const attempt = (text: string) => () =>
      resolveServeConfig({ config: 'c.json' }, {}, files({ 'c.json': text }));
    expect(attempt('{port: 1}')).toThrow(/c\.json is not JSON/);
    expect(attempt('{"prot": 8080}')).toThrow(/must NOT have additional properties \(prot\)/);
    expect(attempt('{"port": "8080"}')).toThrow(/\/port must be integer/);
    expect(attempt('{"limits": {"pagesPerDay": -1}}')).toThrow(/\/limits\/pagesPerDay must be >= 0/);
    expect(attempt('{"clients": [{"id": "a", "secret": "short"}]}')).toThrow(/secret/);
    expect(() => resolveServeConfig({ config: 'missing.json' }, {}, files({}))).toThrow(ServeConfigError);
  });

  it('refuses bad values from the environment', () => {
    expect(() => resolveServeConfig({}, { PORT: 'eighty' }, files({}))).toThrow(/port/);
    expect(() => resolveServeConfig({}, { DOCEX_LOG_LEVEL: 'loud' }, files({}))).toThrow(/log-level/);
    expect(() => resolveServeConfig({}, { DOCEX_TRUST_PROXY: 'maybe' }, files({}))).toThrow(/on or off/);
    expect(() => resolveServeConfig({}, { DOCEX_METRICS_TOKEN: 'short' }, files({}))).toThrow(/16/);
    expect(() => resolveServeConfig({}, { DOCEX_CLIENTS_FILE: '/nope' }, files({}))).toThrow(
      /clients file \/nope cannot be read/,
    );
  });
});
