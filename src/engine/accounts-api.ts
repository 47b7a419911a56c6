import { randomUUID } from 'node:crypto';
import { hashClientSecret, newClientSecret, verifyClientSecret } from '../auth/client-secrets.js';
import { DocexError } from '../core/errors.js';
import type { Engine } from '../engine-types.js';
import type { EngineContext } from './context.js';

export type AccountsApi = Pick<
  Engine,
  | 'configureAccount'
  | 'getAccount'
  | 'createClient'
  | 'authenticateClient'
  | 'findClient'
  | 'createReviewer'
  | 'listReviewers'
  | 'getReviewer'
  | 'updateReviewer'
  | 'authenticateReviewer'
  | 'sessionReviewer'
>;

/** Accounts' settings, their API clients (id and hashed secret) and their reviewers. */
export function accountsApi(ctx: EngineContext): AccountsApi {
  const { persistence, accounts, reviewers } = ctx;
  /** An id no client can have (too long, a NUL character that no store keeps) is unknown. */
  const findStoredClient = async (clientId: string) =>
    typeof clientId === 'string' && clientId.length <= 128 && !clientId.includes('\u0000')
      ? await persistence.getClient(clientId)
      : undefined;

  return {
    configureAccount(accountId, settings) {
      const next = accounts.configure(accountId, settings);
      ctx.track(persistence.putAccount(accountId, next));
      return next;
    },

    getAccount(accountId) {
      return accounts.get(accountId);
    },

    async createClient(accountId, opts = {}) {
      ctx.assertOpen();
      const clientId = opts.clientId ?? `dx_${randomUUID().replace(/-/g, '')}`;
      if (!/^[A-Za-z0-9._~-]{1,128}$/.test(clientId) || !accountId) {
        throw new DocexError(
          'INVALID_ARGUMENT',
          'A client id is 1 to 128 letters, digits, ".", "_", "~" or "-".',
        );
      }
      const clientSecret = opts.clientSecret ?? newClientSecret();
      if (clientSecret.length < 16) {
        throw new DocexError('INVALID_ARGUMENT', 'A client secret has at least 16 characters.');
      }
      await persistence.putClient({
        clientId,
        accountId,
        secretHash: await hashClientSecret(clientSecret),
        createdAt: new Date().toISOString(),
      });
      return { clientId, clientSecret };
    },

    async authenticateClient(clientId, clientSecret) {
      const client = await findStoredClient(clientId);
      const ok = await verifyClientSecret(String(clientSecret).slice(0, 1024), client?.secretHash);
      return ok && client ? client.accountId : undefined;
    },

    async findClient(clientId, opts = {}) {
      const accountId = ctx.accountOf(opts);
      const client = await findStoredClient(clientId);
      if (!client || client.accountId !== accountId) {
        throw new DocexError('NOT_FOUND', `No client with id ${String(clientId).slice(0, 64)}.`);
      }
      return { clientId: client.clientId, accountId: client.accountId, createdAt: client.createdAt };
    },

    createReviewer(input, opts = {}) {
      ctx.assertOpen();
      return reviewers.createReviewer(ctx.accountOf(opts), input);
    },
    listReviewers(opts = {}) {
      return reviewers.listReviewers(ctx.accountOf(opts));
    },
    getReviewer(reviewerId, opts = {}) {
      return reviewers.getReviewer(ctx.accountOf(opts), reviewerId);
    },
    updateReviewer(reviewerId, changes, opts = {}) {
      ctx.assertOpen();
      return reviewers.updateReviewer(ctx.accountOf(opts), reviewerId, changes);
    },
    authenticateReviewer(login, password) {
      return reviewers.authenticateReviewer(login, password);
    },
    sessionReviewer(reviewerId, sessionEpoch, opts = {}) {
      return reviewers.sessionReviewer(ctx.accountOf(opts), reviewerId, sessionEpoch);
    },
  };
}
