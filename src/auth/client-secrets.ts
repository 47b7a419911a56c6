import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const COST = 16384;
const KEY_LENGTH = 32;

function derive(secret: string, salt: Buffer, cost: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, { N: cost, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** A new client secret: 32 random bytes, base64url. */
export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** `scrypt$<N>$<salt>$<hash>`: the only form in which a client secret is stored. */
export async function hashClientSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(secret, salt, COST);
  return `scrypt$${COST}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

const DUMMY = `scrypt$${COST}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`;

/**
 * Whether `secret` matches the stored hash, compared in constant time. With no stored hash (an
 * unknown client) the same work is done against a dummy, so timing does not tell which clients exist.
 */
export async function verifyClientSecret(secret: string, stored: string | undefined): Promise<boolean> {
  const [scheme, cost, salt, hash] = (stored ?? DUMMY).split('$');
  if (scheme !== 'scrypt' || !cost || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), Number(cost));
  return stored !== undefined && expected.length === actual.length && timingSafeEqual(expected, actual);
}
