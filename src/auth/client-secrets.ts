import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

import { WorkGate } from './work-gate.js';

const COST = 16384;
/** Costs a stored hash may name: a changed row cannot make one check take seconds. */
const MIN_COST = 1024;
const MAX_COST = 65536;
const KEY_LENGTH = 32;
/**
 * scrypt runs of the process at once (each ~16 MB and ~50 ms of a libuv thread, of 4): two leave the
 * pool to file reads; 256 more may wait, beyond that a sign-in is refused 429 and tried again.
 */
const gate = new WorkGate(2, 256);

function derive(secret: string, salt: Buffer, cost: number): Promise<Buffer> {
  return gate.run(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(secret, salt, KEY_LENGTH, { N: cost, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
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
  const n = Number(cost);
  // scrypt's N is a power of two; anything else in a stored row is not a hash docex wrote.
  if (!Number.isInteger(n) || n < MIN_COST || n > MAX_COST || (n & (n - 1)) !== 0) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), n);
  return stored !== undefined && expected.length === actual.length && timingSafeEqual(expected, actual);
}
