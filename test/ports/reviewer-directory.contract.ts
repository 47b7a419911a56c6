import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import type { EnginePersistence } from '../../src/ports/engine-persistence.js';
import type { StoredReviewer } from '../../src/ports/reviewer-directory.js';
import { persistenceUnderTest, type MakePersistence } from './engine-persistence.contract.js';

const A = 'account-a';
const B = 'account-b';

function reviewer(overrides: Partial<StoredReviewer> = {}): StoredReviewer {
  return {
    reviewerId: randomUUID(),
    accountId: A,
    login: `person-${randomUUID().slice(0, 8)}`,
    name: 'A Person',
    role: 'reviewer',
    passwordHash: 'scrypt$16384$c2FsdA$aGFzaA',
    disabled: false,
    version: 1,
    sessionEpoch: 1,
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}

/** The reviewers half of the persistence contract: every EnginePersistence adapter passes it. */
export function describeReviewerDirectory(name: string, make: MakePersistence): void {
  describe(`ReviewerDirectory contract: ${name}`, () => {
    const under = persistenceUnderTest(make);
    const open = (): Promise<EnginePersistence> => under.open();

    it('stores a reviewer, reads it by id in its account and by login in any, and hands out copies', async () => {
      const p = await open();
      const ann = reviewer({ login: 'ann@example.com', name: 'Ann' });
      expect(await p.insertReviewer(ann)).toBe(true);
      expect(await p.getReviewer(A, ann.reviewerId)).toEqual(ann);
      expect(await p.getReviewer(B, ann.reviewerId)).toBeUndefined();
      expect(await p.findReviewerByLogin('ann@example.com')).toEqual(ann);
      expect(await p.findReviewerByLogin('bob@example.com')).toBeUndefined();
      const read = (await p.getReviewer(A, ann.reviewerId))!;
      read.name = 'changed';
      read.disabled = true;
      expect(await p.getReviewer(A, ann.reviewerId)).toEqual(ann);
    });

    it('refuses a login or an id that exists, in any account, also when inserts race', async () => {
      const p = await open();
      const ann = reviewer({ login: 'ann' });
      expect(await p.insertReviewer(ann)).toBe(true);
      expect(await p.insertReviewer(reviewer({ login: 'ann', accountId: B }))).toBe(false);
      expect(await p.insertReviewer(reviewer({ reviewerId: ann.reviewerId, login: 'other' }))).toBe(false);
      expect(await p.findReviewerByLogin('other')).toBeUndefined();
      const racing = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          p.insertReviewer(reviewer({ login: 'bob', name: `Bob ${i}`, accountId: i % 2 ? A : B })),
        ),
      );
      expect(racing.filter(Boolean)).toHaveLength(1);
      expect((await p.listReviewers(A)).length + (await p.listReviewers(B)).length).toBe(2);
    });

    it('updates by compare-and-set on the version, never moving a reviewer to another account or login', async () => {
      const p = await open();
      const ann = reviewer({ login: 'ann' });
      await p.insertReviewer(ann);
      const renamed = { ...ann, name: 'Ann Smith', version: 2 };
      expect(await p.updateReviewer(renamed, 1)).toBe(true);
      expect(await p.updateReviewer({ ...ann, name: 'stale', version: 2 }, 1)).toBe(false);
      expect(await p.updateReviewer({ ...renamed, accountId: B, version: 3 }, 2)).toBe(false);
      expect(await p.updateReviewer({ ...renamed, login: 'eve', version: 3 }, 2)).toBe(false);
      expect(await p.updateReviewer(reviewer({ version: 2 }), 1)).toBe(false);
      expect(await p.getReviewer(A, ann.reviewerId)).toEqual(renamed);
      expect(await p.findReviewerByLogin('eve')).toBeUndefined();
      const both = await Promise.all([
        p.updateReviewer({ ...renamed, name: 'one', version: 3 }, 2),
        p.updateReviewer({ ...renamed, name: 'two', version: 3 }, 2),
      ]);
      expect(both.filter(Boolean)).toHaveLength(1);
    });

    it("lists an account's reviewers oldest first, then by login, and no other account's", async () => {
      const p = await open();
      await p.insertReviewer(reviewer({ login: 'zed', createdAt: '2026-11-23T10:00:00.000Z' }));
      await p.insertReviewer(reviewer({ login: 'carl', createdAt: '2026-11-23T11:00:00.000Z' }));
      await p.insertReviewer(reviewer({ login: 'amy', createdAt: '2026-11-23T10:00:00.000Z' }));
      await p.insertReviewer(reviewer({ login: 'bea', accountId: B }));
      expect((await p.listReviewers(A)).map((r) => r.login)).toEqual(['amy', 'zed', 'carl']);
      expect((await p.listReviewers(B)).map((r) => r.login)).toEqual(['bea']);
      expect(await p.listReviewers('nobody')).toEqual([]);
    });

    it('keeps reviewers when the storage is opened again', async () => {
      const p = await open();
      if (!under.durable) return expect(p.shared).toBe(false);
      const ann = reviewer({ login: 'ann' });
      await p.insertReviewer(ann);
      const again = await under.reopen();
      expect(await again.findReviewerByLogin('ann')).toEqual(ann);
    });
  });
}
