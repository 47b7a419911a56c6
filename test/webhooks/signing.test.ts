import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { newWebhookSecret, signedHeaders } from '../../src/webhooks/signing.js';
// The verification snippet the documentation shows, run as the receiver would run it.
import { verifyWebhook } from '../../docs/examples/verify-webhook.mjs';

const snippetPath = fileURLToPath(new URL('../../docs/examples/verify-webhook.mjs', import.meta.url));
const docsPath = fileURLToPath(new URL('../../docs/webhooks.md', import.meta.url));

const body = JSON.stringify({
  type: 'file.finalised',
  timestamp: '2026-11-23T10:00:00.000Z',
  data: { fileId: 'f' },
});
const sent = 1_795_000_000;

describe('webhook signatures (Standard Webhooks)', () => {
  it('secrets are whsec_ and the base64 of 24 random bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('matches the specification`s published example', () => {
    // From the Standard Webhooks specification (its test vector).
    const headers = signedHeaders(
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('the documented snippet accepts a delivery and returns its event', () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders([secret], 'msg_1', sent, body);
    expect(verifyWebhook(secret, headers, body, sent + 10)).toEqual(JSON.parse(body));
  });

  it('the snippet refuses a tampered body, id or timestamp, another secret, and an old message', () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders([secret], 'msg_1', sent, body);
    expect(() => verifyWebhook(secret, headers, body.replace('"f"', '"g"'), sent)).toThrow(/signature/);
    expect(() => verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_2' }, body, sent)).toThrow(
      /signature/,
    );
    expect(() =>
      verifyWebhook(secret, { ...headers, 'webhook-timestamp': String(sent + 1) }, body, sent),
    ).toThrow(/signature/);
    expect(() => verifyWebhook(newWebhookSecret(), headers, body, sent)).toThrow(/signature/);
    expect(() => verifyWebhook(secret, headers, body, sent + 301)).toThrow(/timestamp/);
    expect(() => verifyWebhook(secret, { ...headers, 'webhook-signature': '' }, body, sent)).toThrow(
      /missing/,
    );
  });

  it('after a rotation both secrets verify while the old one still signs', () => {
    const old = newWebhookSecret();
    const current = newWebhookSecret();
    const headers = signedHeaders([current, old], 'msg_1', sent, body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyWebhook(current, headers, body, sent)).toBeTruthy();
    expect(verifyWebhook(old, headers, body, sent)).toBeTruthy();
  });

  it('docs/webhooks.md shows the snippet exactly as tested', () => {
    const snippet = readFileSync(snippetPath, 'utf8').trim();
    expect(readFileSync(docsPath, 'utf8')).toContain(snippet);
  });
});
