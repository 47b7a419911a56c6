import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verifies a docex webhook (Standard Webhooks): `secret` is the subscription's `whsec_...` secret,
 * `headers` the request's headers (lower-case names), `body` the raw body as a string, exactly as
 * received. Returns the parsed event, or throws when the signature or the timestamp does not hold.
 */
export function verifyWebhook(secret, headers, body, nowSeconds = Math.floor(Date.now() / 1000)) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) throw new Error('missing webhook headers');
  // Refuse old (or future) messages: a replayed request fails here.
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 5 * 60) {
    throw new Error('webhook timestamp too old or too new');
  }
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  const valid = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!valid) throw new Error('webhook signature does not match');
  // Deliveries are at least once: drop an event whose webhook-id you have already handled.
  return JSON.parse(body);
}
