import { BlockList, isIP } from 'node:net';

import { DocexError } from '../core/errors.js';

/**
 * Addresses a webhook may not call unless the host allows private targets: loopback, private,
 * link-local (cloud metadata services), carrier-grade NAT, benchmarking, multicast, reserved and
 * unspecified ranges, IPv4 and IPv6 (an IPv4-mapped IPv6 address is judged as its IPv4 address).
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address (v4 or v6) is one a webhook may not call without the host's leave. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  // The same written in hex, as URLs normalise it: ::ffff:7f00:1 is 127.0.0.1.
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
  if (hex) {
    const high = parseInt(hex[1]!, 16);
    const low = parseInt(hex[2]!, 16);
    return PRIVATE.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  const family = isIP(bare);
  if (family === 4) return PRIVATE.check(bare, 'ipv4');
  if (family === 6) return PRIVATE.check(bare, 'ipv6');
  return true;
}

/** Host names that are loopback by definition (RFC 6761), whatever a resolver says. */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

const MAX_URL_LENGTH = 2048;

/**
 * A subscription's target, checked when it is created: an absolute http(s) URL without credentials, and
 * (unless private targets are allowed) not a loopback name or a private address literal. A name that
 * resolves to a private address is refused when a delivery connects (adapters/http/webhook-sender.ts).
 */
export function checkTargetUrl(raw: unknown, allowPrivateTargets: boolean): string {
  const invalid = (message: string) =>
    new DocexError('INVALID_ARGUMENT', message, { details: [{ path: '/url', message }] });
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_URL_LENGTH) {
    throw invalid(`url must be an http or https URL of at most ${MAX_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('url is not a valid absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('url must use http or https.');
  if (url.username || url.password) throw invalid('url must not hold a user name or password.');
  if (!allowPrivateTargets) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isLoopbackName(host) || (isIP(host) !== 0 && isPrivateAddress(host))) {
      throw new DocexError(
        'WEBHOOK_TARGET_REFUSED',
        'The url points at a loopback or private address; the host does not allow private webhook targets.',
        { details: [{ path: '/url', message: 'private or loopback target' }] },
      );
    }
  }
  return url.href;
}
