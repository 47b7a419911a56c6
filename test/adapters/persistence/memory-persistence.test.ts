import { createMemoryPersistence } from '../../../src/adapters/persistence/memory-persistence.js';
import { describe, expect, it } from 'vitest';
import { describeReviewerDirectory } from '../../ports/reviewer-directory.contract.js';
import { describeSupplierMemoryStore } from '../../ports/supplier-memory-store.contract.js';
import { describeUsageLedger } from '../../ports/usage-ledger.contract.js';
import { describeWebhookOutbox } from '../../ports/webhook-outbox.contract.js';
import { describeJobPersistence, makeLayer } from '../../ports/engine-persistence.contract.js';

describeJobPersistence('memory', async () => ({ persistence: createMemoryPersistence() }));
describeWebhookOutbox('memory', async () => ({ persistence: createMemoryPersistence() }));
describeUsageLedger('memory', async () => ({ persistence: createMemoryPersistence() }));
describeReviewerDirectory('memory', async () => ({ persistence: createMemoryPersistence() }));
describeSupplierMemoryStore('memory', async () => ({ persistence: createMemoryPersistence() }));

describe('memory persistence: token layers', () => {
  it('keeps its own frozen copy and hands it out without copying: nobody can change what is stored', async () => {
    const p = createMemoryPersistence();
    const layer = makeLayer('f1');
    await p.putTokenLayer('a', 'f1', layer);
    layer.tokens.length = 0; // the caller's object stays the caller's
    const read = (await p.getTokenLayer('a', 'f1'))!;
    expect(read.tokens.length).toBeGreaterThan(0);
    expect(await p.getTokenLayer('a', 'f1')).toBe(read);
    expect(Object.isFrozen(read) && Object.isFrozen(read.tokens) && Object.isFrozen(read.tokens[0])).toBe(
      true,
    );
    expect(() => {
      (read.tokens as unknown[]).push({});
    }).toThrow(TypeError);
    expect(() => {
      (read.pages[0] as { width: number }).width = 1;
    }).toThrow(TypeError);
  });
});
