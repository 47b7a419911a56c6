/**
 * A job that fails INTERNAL (its workflow threw something that is not a DocexError): the client sees
 * the code and a generic message only; the operator gets the cause, with its stack, on the stored job
 * and in the engine's `error` event.
 */
import { describe, expect, it } from 'vitest';

import { createMemoryPersistence } from '../src/adapters/persistence/memory-persistence.js';
import { createMemoryFileStore } from '../src/adapters/stores/memory-file-store.js';
import { DocexError, createEngine, type EngineEvents } from '../src/index.js';

describe('INTERNAL job failures', () => {
  it('keep their cause for the operator and out of the job record', async () => {
    const persistence = createMemoryPersistence();
    const engine = createEngine({
      persistence,
      workflows: [
        {
          id: 'test.broken',
          inputsSchema: { type: 'object' },
          maxAttempts: 1,
          async run(): Promise<never> {
            throw new TypeError('cannot read the frobnicator of undefined');
          },
        },
      ],
    });
    const errors: Array<EngineEvents['error']> = [];
    engine.on('error', (e) => errors.push(e));
    const ended = new Promise<void>((resolve) =>
      engine.on('job', ({ job }) => {
        if (job.status === 'failed') resolve();
      }),
    );
    const { job } = await engine.invoke('test.broken', { inputs: {} });
    await ended;
    const record = await engine.getJob(job.id);
    expect(record.error).toEqual({
      code: 'INTERNAL',
      message: 'Internal error while processing the document.',
    });
    expect(JSON.stringify(record)).not.toContain('frobnicator');
    const stored = await persistence.getJob(job.id);
    expect(stored!.cause).toMatchObject({
      name: 'TypeError',
      message: 'cannot read the frobnicator of undefined',
    });
    expect(stored!.cause!.stack).toContain('engine-failures.test.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.jobId).toBe(job.id);
    expect((errors[0]!.error.cause as Error).stack).toContain('frobnicator');
    await engine.close();
  });
});

describe('a store that fails with a plain Error', () => {
  it('reaches the host as a DocexError INTERNAL with the cause kept, from every method', async () => {
    const files = createMemoryFileStore();
    const persistence = createMemoryPersistence();
    const broken = new Error('connection reset by peer');
    const engine = createEngine({
      persistence: {
        ...persistence,
        getTokenLayer: () => Promise.reject(broken),
        listJobs: () => Promise.reject(broken),
      },
      files: { ...files, list: () => Promise.reject(broken) },
    });
    const { fileId } = await engine.upload(new TextEncoder().encode('%PDF-1.4 not really'), {
      enforcePageLimit: false,
    });
    for (const call of [
      () => engine.ingest(fileId),
      () => engine.getTokenLayer(fileId),
      () => engine.listJobs(),
      () => engine.listFiles(),
    ]) {
      const error: unknown = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DocexError);
      expect((error as DocexError).code).toBe('INTERNAL');
      expect((error as DocexError).message).not.toContain('connection reset');
      expect((error as DocexError).cause).toBe(broken);
    }
    // A DocexError goes through as it is.
    await expect(engine.getFile('not-an-id')).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await engine.close();
  });
});
