import { describe, it, expect } from 'vitest';

import { createMemoryFileStore } from '../../../src/adapters/stores/memory-file-store.js';
import { describeFileStoreContract } from '../../ports/file-store.contract.js';

describeFileStoreContract('memory', async () => ({ store: createMemoryFileStore() }));

describe('createMemoryFileStore', () => {
  it('gives every store its own data', async () => {
    const first = createMemoryFileStore();
    const second = createMemoryFileStore();
    const record = {
      fileId: '0f8e4a36-5a2b-4c1d-9e7f-1a2b3c4d5e6f',
      accountId: 'account-a',
      mediaType: 'application/pdf' as const,
      size: 1,
      pageCount: 1,
      uploadedAt: '2024-05-01T10:00:00.000Z',
      status: 'RECEIVED' as const,
      metadata: {},
    };
    await first.put(record, Uint8Array.from([1]));
    expect(await second.get('account-a', record.fileId)).toBeUndefined();
    expect(await second.list('account-a')).toEqual([]);
  });
});
