/**
 * The events the engine's own workflows raise, end to end over a loopback receiver: a validation that
 * opens a review task (task.created, no finalisation while it is open), its completion (task.completed,
 * then file.finalised), and a subscription that gets only the types it asked for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createEngine, type Engine } from '../../src/index.js';
import { INVOICE_LINES, makeTextPdf } from '../helpers/make-documents.js';
import { startReceiver, until, type Receiver } from './receiver.js';

const TOTAL = "$.predictions['svc.invoice.total']";
const RULES = {
  data: {
    checks: [
      {
        condition: { type: 'greater-than', values: [`${TOTAL}.value_norm`, 100], compare_as: 'numeric' },
        note: 'Totals above 100 need a second look',
        field_ids: ['svc.invoice.total'],
      },
    ],
  },
  schema: true,
};

let engine: Engine;
let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
  engine = createEngine({ ingest: { ocr: 'never' }, webhooks: { allowPrivateTargets: true, pollMs: 20 } });
});
afterEach(async () => {
  await engine.close();
  await receiver.close();
});

const events = () =>
  receiver.received.map(
    (r) =>
      JSON.parse(r.body) as {
        type: string;
        data: { fileId: string; taskId?: string; jobId?: string; status: string };
      },
  );

describe('webhook events of the built-in workflows', () => {
  it('a validation task: task.created, then task.completed and file.finalised when it is completed', async () => {
    await engine.createWebhook({
      url: receiver.url('/hook'),
      events: ['task.created', 'task.completed', 'file.finalised', 'job.failed'],
    });
    await engine.putValidationRules('high-totals', RULES);
    const file = await engine.uploadV2(await makeTextPdf([{ lines: INVOICE_LINES }]));
    const { job } = await engine.invoke('svc.validate', {
      inputs: { file_id: file.fileId, product_id: 'invoices:2', rules_id: 'high-totals' },
    });
    await until(() => events().length >= 1, 'task.created');
    const [task] = await engine.listTasks({ status: 'open' });
    expect(events()).toEqual([
      {
        type: 'task.created',
        timestamp: expect.any(String),
        data: { fileId: file.fileId, jobId: job.id, taskId: task!.id, status: 'open' },
      },
    ]);
    // The validation job has ended; the open task keeps the file from being finalised.
    await until(async () => (await engine.getJob(job.id)).status === 'succeeded', 'validation ended');
    // Deliveries are written with the change that raises them: the outbox is final once the job ended.
    const [hook] = await engine.listWebhooks();
    expect((await engine.listWebhookDeliveries(hook!.id)).map((d) => d.type)).toEqual(['task.created']);

    await engine.completeTask(task!.id, { values: { 'svc.invoice.total': '151.00' } });
    await until(() => events().length === 3, 'completion events');
    // Deliveries go out side by side: their order is not guaranteed.
    expect(
      events()
        .slice(1)
        .sort((a, b) => b.type.localeCompare(a.type)),
    ).toEqual([
      {
        type: 'task.completed',
        timestamp: expect.any(String),
        data: { fileId: file.fileId, jobId: job.id, taskId: task!.id, status: 'completed' },
      },
      {
        type: 'file.finalised',
        timestamp: expect.any(String),
        data: { fileId: file.fileId, jobId: job.id, status: 'FINALISED' },
      },
    ]);
    expect((await engine.getResult(file.fileId)).status).toBe('FINALISED');
  });

  it('only the subscribed types are sent', async () => {
    await engine.createWebhook({ url: receiver.url('/only-failures'), events: ['job.failed'] });
    const file = await engine.uploadV2(await makeTextPdf([{ lines: INVOICE_LINES }]));
    await engine.invoke('svc.extract', { inputs: { file_id: file.fileId, product_ids: ['invoices:2'] } });
    await until(async () => (await engine.getResult(file.fileId)).status === 'FINALISED', 'extracted');
    const hooks = await engine.listWebhooks();
    expect(await engine.listWebhookDeliveries(hooks[0]!.id)).toEqual([]);
    expect(receiver.received).toEqual([]);
  });
});
