import { describe, expect, it } from 'vitest';

import { createMemoryPersistence } from '../../src/adapters/persistence/memory-persistence.js';
import type { DocexError } from '../../src/core/errors.js';
import { normaliseLogin, reviewerAccounts } from '../../src/reviewers/reviewers.js';

const A = 'acme';
const PASSWORD = 'correct-horse-battery';

function setUp() {
  const persistence = createMemoryPersistence();
  let now = Date.parse('2026-11-23T10:00:00.000Z');
  const accounts = reviewerAccounts(persistence, () => new Date((now += 1000)));
  return { persistence, accounts };
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as DocexError).code;
  }
  return 'no error';
}

describe('reviewer accounts', () => {
  it('creates a reviewer with a hashed password, shown without it', async () => {
    const { persistence, accounts } = setUp();
    const ann = await accounts.createReviewer(A, {
      login: ' Ann@Example.com ',
      name: ' Ann ',
      password: PASSWORD,
    });
    expect(ann).toMatchObject({
      accountId: A,
      login: 'ann@example.com',
      name: 'Ann',
      role: 'reviewer',
      disabled: false,
    });
    expect(Object.keys(ann)).not.toContain('passwordHash');
    const stored = (await persistence.getReviewer(A, ann.reviewerId))!;
    expect(stored.passwordHash).toMatch(/^scrypt\$16384\$/);
    expect(stored.passwordHash).not.toContain(PASSWORD);
    expect(await accounts.listReviewers(A)).toEqual([ann]);
    expect(await accounts.listReviewers('other')).toEqual([]);
  });

  it('refuses a taken login (any account, any case), bad logins, names, roles and short passwords', async () => {
    const { accounts } = setUp();
    await accounts.createReviewer(A, { login: 'ann', name: 'Ann', password: PASSWORD });
    expect(
      await code(accounts.createReviewer('other', { login: 'ANN', name: 'Ann 2', password: PASSWORD })),
    ).toBe('LOGIN_TAKEN');
    for (const bad of [
      { login: '', name: 'X', password: PASSWORD },
      { login: 'has space', name: 'X', password: PASSWORD },
      { login: 'x'.repeat(255), name: 'X', password: PASSWORD },
      { login: 'bob', name: '', password: PASSWORD },
      { login: 'bob', name: 'Bob\u0007', password: PASSWORD },
      { login: 'bob', name: 'Bob', password: 'short' },
      { login: 'bob', name: 'Bob', password: PASSWORD, role: 'root' as never },
    ]) {
      expect(await code(accounts.createReviewer(A, bad)), JSON.stringify(bad)).toBe('INVALID_ARGUMENT');
    }
    expect(normaliseLogin('Ｂob')).toBe('bob'); // full-width letters are the same login
  });

  it('signs in with the login in any case and the right password only, never a disabled reviewer', async () => {
    const { accounts } = setUp();
    const ann = await accounts.createReviewer(A, { login: 'ann', name: 'Ann', password: PASSWORD });
    expect(await accounts.authenticateReviewer('ANN', PASSWORD)).toMatchObject({
      reviewerId: ann.reviewerId,
      sessionEpoch: 1,
    });
    expect(await accounts.authenticateReviewer('ann', 'wrong-password!')).toBeUndefined();
    expect(await accounts.authenticateReviewer('nobody', PASSWORD)).toBeUndefined();
    expect(await accounts.authenticateReviewer('bad login!', PASSWORD)).toBeUndefined();
    expect(await accounts.authenticateReviewer(undefined, undefined)).toBeUndefined();
    await accounts.updateReviewer(A, ann.reviewerId, { disabled: true });
    expect(await accounts.authenticateReviewer('ann', PASSWORD)).toBeUndefined();
  });

  it('ends sessions when the password, role or state changes, not when the name does', async () => {
    const { accounts } = setUp();
    const ann = await accounts.createReviewer(A, { login: 'ann', name: 'Ann', password: PASSWORD });
    expect(await accounts.sessionReviewer(A, ann.reviewerId, 1)).toBeDefined();
    expect(await accounts.sessionReviewer('other', ann.reviewerId, 1)).toBeUndefined();
    const renamed = await accounts.updateReviewer(A, ann.reviewerId, { name: 'Ann Smith' });
    expect(renamed.name).toBe('Ann Smith');
    expect(renamed.updatedAt > ann.updatedAt).toBe(true);
    expect(await accounts.sessionReviewer(A, ann.reviewerId, 1)).toBeDefined();
    await accounts.updateReviewer(A, ann.reviewerId, { role: 'admin' });
    expect(await accounts.sessionReviewer(A, ann.reviewerId, 1)).toBeUndefined();
    expect(await accounts.sessionReviewer(A, ann.reviewerId, 2)).toMatchObject({ role: 'admin' });
    await accounts.updateReviewer(A, ann.reviewerId, { password: 'another-password-1' });
    expect(await accounts.sessionReviewer(A, ann.reviewerId, 2)).toBeUndefined();
    expect(await accounts.authenticateReviewer('ann', PASSWORD)).toBeUndefined();
    expect(await accounts.authenticateReviewer('ann', 'another-password-1')).toMatchObject({
      sessionEpoch: 3,
    });
    await accounts.updateReviewer(A, ann.reviewerId, { disabled: true });
    expect(await accounts.sessionReviewer(A, ann.reviewerId, 4)).toBeUndefined();
  });

  it("keeps accounts apart: another account's reviewer is not found", async () => {
    const { accounts } = setUp();
    const ann = await accounts.createReviewer(A, { login: 'ann', name: 'Ann', password: PASSWORD });
    expect(await code(accounts.getReviewer('other', ann.reviewerId))).toBe('REVIEWER_NOT_FOUND');
    expect(await code(accounts.updateReviewer('other', ann.reviewerId, { disabled: true }))).toBe(
      'REVIEWER_NOT_FOUND',
    );
    expect((await accounts.getReviewer(A, ann.reviewerId)).disabled).toBe(false);
  });
});
