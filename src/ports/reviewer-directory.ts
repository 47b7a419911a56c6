/** What a reviewer may do on the review page: review tasks, or also manage the account's reviewers. */
export type ReviewerRole = 'reviewer' | 'admin';

/** A person who reviews tasks of one account, as stored (the password only as its scrypt hash). */
export interface StoredReviewer {
  reviewerId: string;
  accountId: string;
  /**
   * What the person signs in with (a name or an e-mail address), lower-cased. Unique over every
   * account: the page asks for the login and the password only.
   */
  login: string;
  /** The person's name, as the page and task histories show it. */
  name: string;
  role: ReviewerRole;
  /** `scrypt$<N>$<salt base64url>$<hash base64url>`. */
  passwordHash: string;
  /** A disabled reviewer cannot sign in, and their sessions end; their name stays in histories. */
  disabled: boolean;
  /** Bumped by every change: `updateReviewer` is a compare-and-set on it. */
  version: number;
  /**
   * Bumped when the password, the role or the state changes: a session carries the epoch it was
   * issued in and ends when it is no longer the reviewer's.
   */
  sessionEpoch: number;
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string;
  updatedAt: string;
}

/**
 * The people who review tasks, per account (kept by the engine's persistence).
 *
 * Contract (test/ports/reviewer-directory.contract.ts, run over every adapter):
 * - Everything read is a copy.
 * - `insertReviewer` stores a reviewer whose id and login are both new and answers true; a login or
 *   an id that exists (in any account) stores nothing and answers false, also when two inserts race.
 * - `updateReviewer` writes the reviewer when the stored `version` equals `expectedVersion` (and the
 *   account and login are unchanged), and says whether it did.
 * - `getReviewer` and `listReviewers` see only the account's reviewers; `listReviewers` answers them
 *   oldest first (by `createdAt`, then login). `findReviewerByLogin` searches every account (sign-in).
 */
export interface ReviewerDirectory {
  insertReviewer(reviewer: StoredReviewer): Promise<boolean>;
  updateReviewer(reviewer: StoredReviewer, expectedVersion: number): Promise<boolean>;
  getReviewer(accountId: string, reviewerId: string): Promise<StoredReviewer | undefined>;
  findReviewerByLogin(login: string): Promise<StoredReviewer | undefined>;
  listReviewers(accountId: string): Promise<StoredReviewer[]>;
}

/** The order of `listReviewers`: oldest first, then by login. */
export function byCreatedThenLogin(a: StoredReviewer, b: StoredReviewer): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.login < b.login ? -1 : a.login > b.login ? 1 : 0;
}
