/** Types of the documented verification snippet (verify-webhook.mjs), for the tests that run it. */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | undefined>,
  body: string,
  nowSeconds?: number,
): unknown;
