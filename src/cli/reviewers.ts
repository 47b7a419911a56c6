import { readFileSync } from 'node:fs';

import { DocexError } from '../core/errors.js';
import type { ReviewerRole } from '../ports/reviewer-directory.js';
import { newPassword, normaliseLogin, reviewerAccounts, type Reviewer } from '../reviewers/reviewers.js';
import { resolveServeConfig, ServeConfigError } from './serve-config.js';

export const REVIEWERS_OPTIONS = {
  login: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string' },
  account: { type: 'string', default: 'default' },
  'password-stdin': { type: 'boolean', default: false },
  disable: { type: 'boolean', default: false },
  enable: { type: 'boolean', default: false },
  config: { type: 'string' },
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  'database-schema': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The options as parseArgs gives them. */
interface Values {
  login?: string | undefined;
  name?: string | undefined;
  role?: string | undefined;
  account: string;
  'password-stdin'?: boolean | undefined;
  disable?: boolean | undefined;
  enable?: boolean | undefined;
  config?: string | undefined;
  'data-dir'?: string | undefined;
  'database-url'?: string | undefined;
  'database-schema'?: string | undefined;
}

export interface ReviewersIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** The new password for --password-stdin (its first line). */
  readStdin: () => Promise<string>;
  env: Record<string, string | undefined>;
}

/** A usage error of `docex reviewers` (exit 2). */
export class ReviewersUsageError extends Error {}

function role(text: string | undefined): ReviewerRole | undefined {
  if (text === undefined) return undefined;
  if (text !== 'reviewer' && text !== 'admin') throw new ReviewersUsageError('--role is reviewer or admin');
  return text;
}

function line(reviewer: Reviewer): string {
  const { reviewerId, accountId, login, name, role: r, disabled, createdAt } = reviewer;
  return JSON.stringify({ reviewerId, accountId, login, name, role: r, disabled, createdAt }) + '\n';
}

/**
 * `docex reviewers add|list|set`: the people who sign in to the review page, kept in the same storage
 * `docex serve` uses (the same --data-dir, --database-url or config file). The first admin is made
 * here; admins then manage the others on the page too. A password is read from stdin
 * (--password-stdin), never from argv; without it `add` makes one and prints it once.
 */
export async function reviewersCommand(
  action: string | undefined,
  values: Values,
  io: ReviewersIo,
): Promise<number> {
  if (action !== 'add' && action !== 'list' && action !== 'set') {
    throw new ReviewersUsageError(
      action === undefined ? 'say what to do: add, list or set' : `unknown action "${action}"`,
    );
  }
  if (values.disable && values.enable)
    throw new ReviewersUsageError('--disable and --enable exclude each other');
  let config;
  try {
    config = resolveServeConfig(
      {
        config: values.config,
        'data-dir': values['data-dir'],
        'database-url': values['database-url'],
        'database-schema': values['database-schema'],
      },
      io.env,
      (path) => readFileSync(path, 'utf8'),
    );
  } catch (error) {
    if (error instanceof ServeConfigError) throw new ReviewersUsageError(error.message);
    throw error;
  }
  const accountId = values.account;
  // Loaded when used, as by `docex serve`: the storage adapters stay out of the other commands.
  const { openServePersistence } = await import('./serve-storage.js');
  const persistence = await openServePersistence(config);
  try {
    const reviewers = reviewerAccounts(persistence);
    const password = async (): Promise<string | undefined> =>
      values['password-stdin'] ? (await io.readStdin()).split(/\r?\n/)[0]! : undefined;
    if (action === 'list') {
      for (const r of await reviewers.listReviewers(accountId)) io.stdout.write(line(r));
      return 0;
    }
    if (action === 'add') {
      if (!values.login || !values.name) throw new ReviewersUsageError('add needs --login and --name');
      const given = await password();
      const chosen = given ?? newPassword();
      const created = await reviewers.createReviewer(accountId, {
        login: values.login,
        name: values.name,
        role: role(values.role) ?? 'reviewer',
        password: chosen,
      });
      io.stdout.write(line(created));
      if (given === undefined) io.stderr.write(`password of ${created.login}: ${chosen} (shown once)\n`);
      return 0;
    }
    if (!values.login) throw new ReviewersUsageError('set needs --login');
    // The login as sign-in reads it (NFKC, lower case); one that cannot be a login finds nobody.
    let login: string | undefined;
    try {
      login = normaliseLogin(values.login);
    } catch {
      login = undefined;
    }
    const found = login === undefined ? undefined : await persistence.findReviewerByLogin(login);
    if (!found || found.accountId !== accountId) {
      throw new DocexError('REVIEWER_NOT_FOUND', `No reviewer ${values.login} in account ${accountId}.`);
    }
    const newRole = role(values.role);
    const newPasswordGiven = await password();
    const updated = await reviewers.updateReviewer(accountId, found.reviewerId, {
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(newRole !== undefined ? { role: newRole } : {}),
      ...(newPasswordGiven !== undefined ? { password: newPasswordGiven } : {}),
      ...(values.disable ? { disabled: true } : values.enable ? { disabled: false } : {}),
    });
    io.stdout.write(line(updated));
    return 0;
  } catch (error) {
    if (error instanceof DocexError) {
      io.stderr.write(`docex reviewers: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await persistence.close();
  }
}
