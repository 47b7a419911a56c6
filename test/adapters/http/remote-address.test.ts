/**
 * The address the node:http adapter records beside each request (for the sign-in limits): the socket's,
 * or with `trustProxy` the first address of `X-Forwarded-For`; a client's header is ignored otherwise.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { createNodeListener } from '../../../src/adapters/http/node-listener.js';
import { remoteAddressOf } from '../../../src/http/remote-address.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function addressSeen(trustProxy: boolean, headers: Record<string, string>): Promise<string> {
  server = createServer(
    createNodeListener(async (request) => new Response(remoteAddressOf(request) ?? 'none'), { trustProxy }),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return (await fetch(`http://127.0.0.1:${port}/`, { headers })).text();
}

describe('remote address of a request (node:http adapter)', () => {
  it('is the socket`s address, whatever a client writes in X-Forwarded-For', async () => {
    expect(await addressSeen(false, { 'x-forwarded-for': '203.0.113.9' })).toMatch(/127\.0\.0\.1$/);
  });

  it('is the first address of X-Forwarded-For behind a trusted proxy', async () => {
    expect(await addressSeen(true, { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' })).toBe('203.0.113.9');
    expect(await addressSeen(true, {})).toMatch(/127\.0\.0\.1$/);
  });
});
