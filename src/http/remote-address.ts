/**
 * The address a request came from, as the host that received it says: a web `Request` does not carry
 * one. The node:http adapter records the socket's address here; other hosts may too. Kept beside the
 * request object (never in a header a client could set).
 */
const addresses = new WeakMap<Request, string>();

export function setRemoteAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address);
}

export function remoteAddressOf(request: Request): string | undefined {
  return addresses.get(request);
}
