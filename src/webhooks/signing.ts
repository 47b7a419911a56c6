import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret as Standard Webhooks writes them: `whsec_` and the base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under the secret's key. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/**
 * The headers of one attempt (Standard Webhooks 1.0): `webhook-id` (the event's id, the same on every
 * attempt), `webhook-timestamp` (seconds, this attempt's), and `webhook-signature`, one `v1,<sig>` per
 * secret, space-separated: the current secret first, then the one before a rotation while it lasts.
 */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => `v1,${signature(s, id, timestampSeconds, body)}`).join(' '),
  };
}
