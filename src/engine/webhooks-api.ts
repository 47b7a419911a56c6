import type { Engine } from '../engine-types.js';
import type { EngineContext } from './context.js';

export type WebhooksApi = Pick<
  Engine,
  | 'createWebhook'
  | 'listWebhooks'
  | 'getWebhook'
  | 'deleteWebhook'
  | 'rotateWebhookSecret'
  | 'listWebhookDeliveries'
>;

/** An account's webhook subscriptions and their deliveries (sent by the context's dispatcher). */
export function webhooksApi(ctx: EngineContext): WebhooksApi {
  const { subscriptions } = ctx;
  return {
    async createWebhook(body, opts = {}) {
      ctx.assertOpen();
      return subscriptions.create(ctx.accountOf(opts), body);
    },
    async listWebhooks(opts = {}) {
      return subscriptions.list(ctx.accountOf(opts));
    },
    async getWebhook(webhookId, opts = {}) {
      return subscriptions.get(ctx.accountOf(opts), webhookId);
    },
    async deleteWebhook(webhookId, opts = {}) {
      await subscriptions.delete(ctx.accountOf(opts), webhookId);
    },
    async rotateWebhookSecret(webhookId, opts = {}) {
      ctx.assertOpen();
      return subscriptions.rotateSecret(ctx.accountOf(opts), webhookId);
    },
    async listWebhookDeliveries(webhookId, opts = {}) {
      const { accountId, ...query } = opts;
      return subscriptions.deliveries(ctx.accountOf({ accountId }), webhookId, query);
    },
  };
}
