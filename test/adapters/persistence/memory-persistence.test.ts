import { createMemoryPersistence } from '../../../src/adapters/persistence/memory-persistence.js';
import { createMemoryFileStore } from '../../../src/adapters/stores/memory-file-store.js';
import { DocexError } from '../../../src/core/errors.js';
import { createEngine, type Engine } from '../../../src/index.js';
import type { OcrEngine } from '../../../src/ports/ocr-engine.js';
import type { PersistenceChange } from '../../../src/ports/engine-persistence.js';
import type { WorkflowDefinition } from '../../../src/workflows/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeReviewerDirectory } from '../../ports/reviewer-directory.contract.js';
import { describeSupplierMemoryStore } from '../../ports/supplier-memory-store.contract.js';
import { describeUsageLedger } from '../../ports/usage-ledger.contract.js';
import { describeWebhookOutbox } from '../../ports/webhook-outbox.contract.js';
import { describeJobPersistence, makeJob, makeLayer } from '../../ports/engine-persistence.contract.js';
import { describeSharedPersistence } from '../../ports/shared-persistence.contract.js';

describeJobPersistence('memory', async () => ({ persistence: createMemoryPersistence() }));
describeWebhookOutbox('memory', async () => ({ persistence: createMemoryPersistence() }));
describeUsageLedger('memory', async () => ({ persistence: createMemoryPersistence() }));
describeReviewerDirectory('memory', async () => ({ persistence: createMemoryPersistence() }));
describeSupplierMemoryStore('memory', async () => ({ persistence: createMemoryPersistence() }));

// Shared mode: each handle is a whole EnginePersistence, and the storage outlives a closed handle
// (another handle on it sees everything, as a database opened again would).
const makeShared = async () => {
  const persistence = createMemoryPersistence({ shared: true });
  return {
    persistence,
    reopen: async () => {
      await persistence.close();
      return persistence.connect();
    },
  };
};
describeJobPersistence('memory, shared', makeShared);
describeWebhookOutbox('memory, shared', makeShared);
describeUsageLedger('memory, shared', makeShared);
describeReviewerDirectory('memory, shared', makeShared);
describeSupplierMemoryStore('memory, shared', makeShared);
describeSharedPersistence('memory', async () => {
  const storage = createMemoryPersistence({ shared: true });
  return { connect: async () => storage.connect() };
});

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

describe('memory persistence: handles of the shared mode', () => {
  it('is not shared by default, and has none of the shared-storage members then', () => {
    const p = createMemoryPersistence();
    expect(p.shared).toBe(false);
    expect([p.claimNext, p.countJobs, p.subscribe, (p as { connect?: unknown }).connect]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(createMemoryPersistence({ shared: false }).shared).toBe(false);
  });

  it('closes one handle only: the others keep the storage, and its listeners stop', async () => {
    const first = createMemoryPersistence({ shared: true });
    const second = first.connect();
    const seen: PersistenceChange[] = [];
    await first.subscribe((change) => seen.push(change));
    const job = makeJob();
    await second.insertJob(job);
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    await first.close();
    await first.close(); // harmless
    await expect(first.getJob(job.record.id)).rejects.toThrow(/closed/);
    await expect(
      first.claimNext({ owner: 'o', now: 1, leaseUntil: 2, excludeAccounts: [], excludeQueues: [] }),
    ).rejects.toThrow(/closed/);
    await expect(first.subscribe(() => undefined)).rejects.toThrow(/closed/);
    await second.insertJob(makeJob());
    expect(await second.countJobs(['new'])).toBe(2);
    // A handle opened after (from the closed one too) sees everything stored.
    const third = first.connect();
    expect(await third.getJob(job.record.id)).toEqual(job);
    // Whatever was announced has been delivered by now; the closed handle's listener heard none of it.
    const control: PersistenceChange[] = [];
    await third.subscribe((change) => control.push(change));
    await second.insertJob(makeJob());
    await vi.waitFor(() => expect(control).toHaveLength(1));
    expect(seen).toHaveLength(1);
  });

  it('keeps telling other listeners when one throws', async () => {
    const p = createMemoryPersistence({ shared: true });
    const seen: string[] = [];
    await p.subscribe(() => {
      throw new Error('a listener that fails');
    });
    await p.subscribe((change) => seen.push(change.kind));
    await p.insertJob(makeJob());
    await vi.waitFor(() => expect(seen).toEqual(['job']));
  });
});

/** A 1x1 greyscale PNG: uploads only sniff the type, and the workflow never reads its file. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==',
  'base64',
);

const noOcr: OcrEngine = {
  recognize: () => Promise.reject(new DocexError('OCR_FAILED', 'OCR is not used in this test.')),
  close: () => Promise.resolve(),
};

describe('two engines of one process on one shared in-memory storage', () => {
  const engines: Engine[] = [];
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((e) => e.close()));
  });

  it('run each job once, in the engine with a free slot, and a result request waits for both', async () => {
    const storage = createMemoryPersistence({ shared: true });
    const files = createMemoryFileStore();
    /** Runs as they start: engine and job id. */
    const runs: Array<{ engine: string; jobId: string }> = [];
    const releases: Array<() => void> = [];
    let bothStarted!: () => void;
    const started = new Promise<void>((resolve) => (bothStarted = resolve));
    const hold = (engine: string): WorkflowDefinition => ({
      id: 'test.hold',
      inputsSchema: { type: 'object', required: ['file_id'], properties: { file_id: { type: 'string' } } },
      async run({ job }) {
        runs.push({ engine, jobId: job.id });
        if (runs.length === 2) bothStarted();
        // Held until the test lets it end: a slot stays busy as long as the test needs.
        await new Promise<void>((resolve) => releases.push(resolve));
        return { fields: [{ name: 'test.by', value: engine, confidence: 1, boundingBox: null }] };
      },
    });
    const engineOn = (name: string, persistence: ReturnType<typeof storage.connect>): Engine => {
      const engine = createEngine({
        files,
        persistence,
        ocr: noOcr,
        ingest: { ocr: 'never' },
        // One slot each; no polling in the test's time: only the storage's notifications wake a claim.
        jobs: { concurrency: 1, pollMs: 3_600_000 },
        workflows: [hold(name)],
      });
      engines.push(engine);
      return engine;
    };
    const a = engineOn('a', storage);
    const b = engineOn('b', storage.connect());
    await Promise.all([a.ready, b.ready]);

    const { fileId } = await a.uploadV2(PNG, { name: 'one.png' });
    const first = (await a.invoke('test.hold', { inputs: { file_id: fileId } })).job;
    const second = (await a.invoke('test.hold', { inputs: { file_id: fileId } })).job;
    // Engine a's one slot is busy with a held run: the other job can only run in b, woken by the
    // storage when a stored it.
    await started;
    expect(runs.map((r) => r.jobId).sort()).toEqual([first.id, second.id].sort());
    expect(runs.map((r) => r.engine).sort()).toEqual(['a', 'b']);

    // A result request at b waits for both jobs, the one a runs included.
    const result = b.getResult(fileId, { timeoutMs: 60_000 });
    for (const release of releases) release();
    const answer = await result;
    expect(answer.status).toBe('FINALISED');

    for (const job of [first, second]) {
      // new (1) -> running (2) -> succeeded (3): claimed once, run once, finished once.
      expect(await b.getJob(job.id)).toMatchObject({ status: 'succeeded', version: 3 });
      expect((await storage.getJob(job.id))!.attempts).toBe(1);
    }
    const results = await storage.listResults('default', fileId);
    expect(results.map((r) => r.jobId).sort()).toEqual([first.id, second.id].sort());
    expect(results.map((r) => r.fields[0]!.value).sort()).toEqual(['a', 'b']);
    expect(runs).toHaveLength(2);
    expect(await storage.countJobs(['new', 'running'])).toBe(0);
  });
});
