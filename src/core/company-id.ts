import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Namespace of the name-based UUIDs below (a random UUID fixed once for docex). */
const NAMESPACE = Buffer.from('5f0c2a4e8b7d4c1e9a3f6b2d7e8c9a10', 'hex');

/**
 * The `company_id` (a UUID) of an account: the id itself when it is a UUID, otherwise a name-based
 * UUID (RFC 9562 version 5) of it, so it is stable across restarts and processes without a table.
 */
export function companyIdOf(accountId: string): string {
  if (UUID.test(accountId)) return accountId.toLowerCase();
  return nameUuid(accountId);
}

/** A name-based UUID (version 5): the same name always gives the same id. */
export function nameUuid(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
