/**
 * The HTTP surface in a process of its own, for tests whose request could take the process down (an
 * uncaught exception there must not end the test runner): run as
 * `node --import tsx test/http/server-child.ts`.
 *
 * Accounts: `acme` (client `acme-client`) with the default limits, `small` (client `small-client`)
 * whose uploads are at most 100 KB; both clients' secret is `<client id>-secret-0123456789`. Prints one
 * JSON line `{"url": ...}` when it listens, then serves until SIGTERM.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeListener } from '../../src/adapters/http/node-listener.js';
import { createFetchHandler } from '../../src/http/fetch-handler.js';
import { createEngine } from '../../src/index.js';

export const CHILD_SMALL_LIMIT = 100 * 1024;

const engine = createEngine({ ingest: { ocr: 'never' } });
for (const account of ['acme', 'small']) {
  await engine.createClient(account, {
    clientId: `${account}-client`,
    clientSecret: `${account}-client-secret-0123456789`,
  });
}
engine.configureAccount('small', { limits: { maxFileBytes: CHILD_SMALL_LIMIT } });
const server = createServer(
  createNodeListener(
    createFetchHandler(engine, { tokens: { secret: 'docex-child-token-secret-0123456789' } }),
  ),
);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
  void engine.close().then(() => process.exit(0));
});
