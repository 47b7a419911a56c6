import { randomBytes, randomUUID } from 'node:crypto';

import { hashClientSecret, verifyClientSecret } from '../auth/client-secrets.js';
import { DocexError } from '../core/errors.js';
import type { ReviewerDirectory, ReviewerRole, StoredReviewer } from '../ports/reviewer-directory.js';

/** A reviewer as the library, the page and the CLI show one: never the password's hash. */
export interface Reviewer {
  reviewerId: string;
  accountId: string;
  login: string;
  name: string;
  role: ReviewerRole;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface NewReviewer {
  login: string;
  name: string;
  role?: ReviewerRole;
  password: string;
}

export interface ReviewerChanges {
  name?: string;
  role?: ReviewerRole;
  password?: string;
  disabled?: boolean;
}

/** A reviewer signed in: who, and the epoch their session carries. */
export interface SignedInReviewer extends Reviewer {
  sessionEpoch: number;
}

const ROLES: readonly ReviewerRole[] = ['reviewer', 'admin'];
export const MIN_PASSWORD = 10;
const MAX_PASSWORD = 1024;
/** How often a compare-and-set lost to another change is tried again. */
const RETRIES = 5;

/** Lower-cased, trimmed: 1 to 254 letters, digits and `.`, `_`, `-`, `+`, `@` (a name or an e-mail address). */
export function normaliseLogin(login: unknown): string {
  const text = typeof login === 'string' ? login.trim().normalize('NFKC').toLowerCase() : '';
  if (!/^[a-z0-9._@+-]{1,254}$/.test(text)) {
    throw new DocexError(
      'INVALID_ARGUMENT',
      'A login is 1 to 254 letters, digits, ".", "_", "-", "+" or "@" (a name or an e-mail address).',
      { details: [{ path: '/login', message: 'not a valid login' }] },
    );
  }
  return text;
}

function checkName(name: unknown): string {
  const text = typeof name === 'string' ? name.trim() : '';
  if (text.length < 1 || text.length > 200 || /\p{Cc}/u.test(text)) {
    throw new DocexError('INVALID_ARGUMENT', "A reviewer's name is 1 to 200 characters.", {
      details: [{ path: '/name', message: 'not a valid name' }],
    });
  }
  return text;
}

function checkRole(role: unknown): ReviewerRole {
  if (!ROLES.includes(role as ReviewerRole)) {
    throw new DocexError('INVALID_ARGUMENT', 'A role is "reviewer" or "admin".', {
      details: [{ path: '/role', message: 'must be reviewer or admin' }],
    });
  }
  return role as ReviewerRole;
}

function checkPassword(password: unknown): string {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD || password.length > MAX_PASSWORD) {
    throw new DocexError(
      'INVALID_ARGUMENT',
      `A password has ${MIN_PASSWORD} to ${MAX_PASSWORD} characters.`,
      { details: [{ path: '/password', message: 'too short or too long' }] },
    );
  }
  return password;
}

/** A new random password (for a reviewer created without one): 18 bytes, base64url. */
export function newPassword(): string {
  return randomBytes(18).toString('base64url');
}

export function toReviewer(stored: StoredReviewer): Reviewer {
  return {
    reviewerId: stored.reviewerId,
    accountId: stored.accountId,
    login: stored.login,
    name: stored.name,
    role: stored.role,
    disabled: stored.disabled,
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
}

/**
 * The people who review an account's tasks: created by an admin (the page or `docex reviewers`),
 * signing in with their own login and password (hashed with scrypt like client secrets). Takes the
 * directory it keeps them in and a clock; holds no state of its own.
 */
export function reviewerAccounts(directory: ReviewerDirectory, now: () => Date = () => new Date()) {
  async function require(accountId: string, reviewerId: string): Promise<StoredReviewer> {
    const found =
      typeof reviewerId === 'string' && reviewerId.length <= 64
        ? await directory.getReviewer(accountId, reviewerId)
        : undefined;
    if (!found) {
      throw new DocexError('REVIEWER_NOT_FOUND', `No reviewer with id ${String(reviewerId).slice(0, 64)}.`);
    }
    return found;
  }

  return {
    async createReviewer(accountId: string, input: NewReviewer): Promise<Reviewer> {
      const given = (typeof input === 'object' && input !== null ? input : {}) as Partial<NewReviewer>;
      const login = normaliseLogin(given.login);
      const name = checkName(given.name);
      const role = checkRole(given.role ?? 'reviewer');
      const password = checkPassword(given.password);
      const at = now().toISOString();
      const stored: StoredReviewer = {
        reviewerId: randomUUID(),
        accountId,
        login,
        name,
        role,
        passwordHash: await hashClientSecret(password),
        disabled: false,
        version: 1,
        sessionEpoch: 1,
        createdAt: at,
        updatedAt: at,
      };
      if (!(await directory.insertReviewer(stored))) {
        throw new DocexError('LOGIN_TAKEN', `The login ${login} is taken.`);
      }
      return toReviewer(stored);
    },

    async listReviewers(accountId: string): Promise<Reviewer[]> {
      return (await directory.listReviewers(accountId)).map(toReviewer);
    },

    async getReviewer(accountId: string, reviewerId: string): Promise<Reviewer> {
      return toReviewer(await require(accountId, reviewerId));
    },

    /** Changes a reviewer; a new password, role or state ends the sessions they have. */
    async updateReviewer(accountId: string, reviewerId: string, changes: ReviewerChanges): Promise<Reviewer> {
      const given = (typeof changes === 'object' && changes !== null ? changes : {}) as ReviewerChanges;
      const name = given.name === undefined ? undefined : checkName(given.name);
      const role = given.role === undefined ? undefined : checkRole(given.role);
      const password = given.password === undefined ? undefined : checkPassword(given.password);
      if (given.disabled !== undefined && typeof given.disabled !== 'boolean') {
        throw new DocexError('INVALID_ARGUMENT', '"disabled" is true or false.');
      }
      const passwordHash = password === undefined ? undefined : await hashClientSecret(password);
      for (let attempt = 0; attempt < RETRIES; attempt++) {
        const stored = await require(accountId, reviewerId);
        const endsSessions =
          passwordHash !== undefined ||
          (role !== undefined && role !== stored.role) ||
          (given.disabled !== undefined && given.disabled !== stored.disabled);
        const next: StoredReviewer = {
          ...stored,
          ...(name !== undefined ? { name } : {}),
          ...(role !== undefined ? { role } : {}),
          ...(passwordHash !== undefined ? { passwordHash } : {}),
          ...(given.disabled !== undefined ? { disabled: given.disabled } : {}),
          version: stored.version + 1,
          sessionEpoch: stored.sessionEpoch + (endsSessions ? 1 : 0),
          updatedAt: now().toISOString(),
        };
        if (await directory.updateReviewer(next, stored.version)) return toReviewer(next);
      }
      throw new DocexError('INTERNAL', 'The reviewer kept changing; try again.');
    },

    /**
     * The reviewer whose login and password these are, or undefined (also when disabled). An unknown
     * login costs the same scrypt work as a known one, so timing does not tell which logins exist.
     */
    async authenticateReviewer(login: unknown, password: unknown): Promise<SignedInReviewer | undefined> {
      let key: string | undefined;
      try {
        key = normaliseLogin(login);
      } catch {
        key = undefined;
      }
      const stored = key === undefined ? undefined : await directory.findReviewerByLogin(key);
      const ok = await verifyClientSecret(
        String(password ?? '').slice(0, MAX_PASSWORD),
        stored?.passwordHash,
      );
      if (!ok || !stored || stored.disabled) return undefined;
      return { ...toReviewer(stored), sessionEpoch: stored.sessionEpoch };
    },

    /** The reviewer of a session, while it is still theirs (same epoch, not disabled). */
    async sessionReviewer(
      accountId: string,
      reviewerId: string,
      sessionEpoch: number,
    ): Promise<SignedInReviewer | undefined> {
      const stored = await directory.getReviewer(accountId, reviewerId);
      if (!stored || stored.disabled || stored.sessionEpoch !== sessionEpoch) return undefined;
      return { ...toReviewer(stored), sessionEpoch: stored.sessionEpoch };
    },
  };
}

export type ReviewerAccounts = ReturnType<typeof reviewerAccounts>;
