import { DocexError, toDocexError } from '../core/errors.js';
import type { RulesRecord } from '../conditions/types.js';
import type { Engine } from '../engine-types.js';
import { documentHints } from '../extraction/hints.js';
import { createView } from '../extraction/view.js';
import { summaryOf } from '../learning/supplier-memories.js';
import { completeTask, lessonOfTask, taskFields, toReviewTask } from '../tasks/review-tasks.js';
import { taskEvents } from '../webhooks/events.js';
import { checkFileId, UUID_LIKE, type EngineContext } from './context.js';
import { fileKey } from './job-queue.js';

export type TasksApi = Pick<
  Engine,
  | 'putValidationRules'
  | 'getValidationRules'
  | 'deleteValidationRules'
  | 'listTasks'
  | 'getTask'
  | 'getTaskView'
  | 'completeTask'
  | 'learn'
  | 'listSuppliers'
  | 'exportSupplier'
  | 'importSupplier'
  | 'forgetSupplier'
>;

/**
 * Validation rules, the review tasks they raise, and what completed reviews teach the memory of the
 * document's supplier. `ingest` reads a document whose token layer is not stored (to learn from it).
 */
export function tasksApi(ctx: EngineContext, ingest: Engine['ingest']): TasksApi {
  const { persistence, namespace, learning } = ctx;

  function checkRulesId(rulesId: string): string {
    if (typeof rulesId !== 'string' || rulesId.length === 0 || rulesId.length > 256) {
      throw new DocexError('INVALID_ARGUMENT', 'A rules id is a string of 1 to 256 characters.');
    }
    return rulesId;
  }

  async function requireTask(accountId: string, taskId: string) {
    const task =
      typeof taskId === 'string' && UUID_LIKE.test(taskId)
        ? await persistence.getTask(accountId, taskId.toLowerCase())
        : undefined;
    if (!task) throw new DocexError('TASK_NOT_FOUND', `No task with id ${String(taskId).slice(0, 64)}.`);
    return task;
  }

  async function getValidationRules(rulesId: string, accountId: string): Promise<RulesRecord> {
    const rules = await persistence.getRules(accountId, checkRulesId(rulesId));
    if (rules === undefined) {
      throw new DocexError('RULES_NOT_FOUND', `No validation rules with id ${rulesId.slice(0, 256)}.`);
    }
    return rules as RulesRecord;
  }

  /** Teaches the memory of the file's supplier the reviewed values (by result name). */
  async function learnFrom(
    accountId: string,
    fileId: string,
    values: Record<string, string | null>,
    outcomes?: Record<string, boolean>,
  ) {
    const record = await ctx.requireFile(accountId, fileId);
    const layer =
      (await persistence.getTokenLayer(accountId, record.fileId)) ??
      (await ingest(record.fileId, { accountId }));
    const view = createView(layer);
    const kinds = ctx.fieldKinds();
    return learning.learn(accountId, {
      view,
      hints: documentHints(view, record.locale ?? ctx.accounts.get(accountId).locale),
      values,
      kindOf: (name) => kinds.get(name),
      ...(outcomes ? { outcomes } : {}),
    });
  }

  return {
    async putValidationRules(rulesId, rules, opts = {}) {
      ctx.assertOpen();
      const checked = ctx.rules.checkRules(rules);
      await persistence.putRules(ctx.accountOf(opts), checkRulesId(rulesId), checked);
      return structuredClone(checked);
    },

    async getValidationRules(rulesId, opts = {}) {
      return getValidationRules(rulesId, ctx.accountOf(opts));
    },

    async deleteValidationRules(rulesId, opts = {}) {
      ctx.assertOpen();
      const accountId = ctx.accountOf(opts);
      await getValidationRules(rulesId, accountId);
      await persistence.putRules(accountId, checkRulesId(rulesId), undefined);
    },

    async listTasks(opts = {}) {
      const query = {
        accountId: ctx.accountOf(opts),
        ...(opts.status !== undefined ? { status: opts.status } : {}),
        ...(opts.fileId !== undefined ? { fileId: checkFileId(opts.fileId) } : {}),
      };
      return (await persistence.listTasks(query)).map(toReviewTask);
    },

    async getTask(taskId, opts = {}) {
      return toReviewTask(await requireTask(ctx.accountOf(opts), taskId));
    },

    async getTaskView(taskId, opts = {}) {
      const accountId = ctx.accountOf(opts);
      const stored = await requireTask(accountId, taskId);
      const task = toReviewTask(stored);
      const record = await ctx.requireFile(accountId, stored.fileId);
      const kinds = ctx.fieldKinds();
      const extracted = taskFields(stored);
      const fields = task.field_ids.map((fieldId) => {
        const name = fieldId.startsWith(`${namespace}.`) ? fieldId.slice(namespace.length + 1) : fieldId;
        const field = extracted.find((f) => f.name === name);
        return {
          fieldId,
          name,
          kind: kinds.get(name) ?? 'text',
          value: field?.value ?? null,
          confidence: field?.confidence ?? 0,
          boundingBox: field?.boundingBox ?? null,
          candidates: field?.candidates ?? [],
        };
      });
      const file = {
        fileId: record.fileId,
        mediaType: record.mediaType,
        pageCount: record.pageCount,
        ...(record.name !== undefined ? { name: record.name } : {}),
      };
      return { task, file, fields };
    },

    async completeTask(taskId, body, opts = {}) {
      ctx.assertOpen();
      const accountId = ctx.accountOf(opts);
      const task = await requireTask(accountId, taskId);
      const kinds = ctx.fieldKinds();
      const given = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      // Values taken from words of the page keep those words' box: the document's words are read then.
      const layer =
        given.tokenIds !== undefined ? await persistence.getTokenLayer(accountId, task.fileId) : undefined;
      const completed = completeTask(
        task,
        given.values,
        {
          namespace,
          kindOf: (name) => kinds.get(name),
          now: new Date().toISOString(),
          ...(opts.by ? { by: opts.by } : {}),
          ...(layer ? { tokens: layer.tokens } : {}),
        },
        given.tokenIds,
      );
      if (opts.dryRun) return toReviewTask(completed);
      if (
        !(await persistence.updateTask(
          completed,
          task.version,
          taskEvents(completed, 'completed', ctx.eventClock),
        ))
      ) {
        throw new DocexError('TASK_ALREADY_COMPLETED', `Task ${task.id} was completed meanwhile.`);
      }
      ctx.signals.notify(fileKey(accountId, task.fileId));
      ctx.dispatcher?.poke();
      // The review teaches the supplier's memory; a failure to store it never fails the completion.
      const lesson = lessonOfTask(completed);
      if (lesson) {
        await learnFrom(accountId, task.fileId, lesson.values, lesson.outcomes).catch((error: unknown) =>
          ctx.emit('error', {
            jobId: '',
            error: toDocexError(error, 'INTERNAL', 'What the review taught could not be stored.'),
          }),
        );
      }
      return toReviewTask(completed);
    },

    async learn(fileId, values, opts = {}) {
      ctx.assertOpen();
      const accountId = ctx.accountOf(opts);
      if (typeof values !== 'object' || values === null || Array.isArray(values)) {
        throw new DocexError('INVALID_ARGUMENT', 'The values must be an object of field name to value.');
      }
      const byName: Record<string, string | null> = {};
      for (const [key, value] of Object.entries(values)) {
        const name = key.startsWith(`${namespace}.`) ? key.slice(namespace.length + 1) : key;
        if (typeof value === 'string' || value === null) byName[name] = value;
      }
      return summaryOf(await learnFrom(accountId, fileId, byName));
    },

    listSuppliers(opts = {}) {
      return learning.list(ctx.accountOf(opts));
    },
    exportSupplier(supplierId, opts = {}) {
      return learning.export(ctx.accountOf(opts), supplierId);
    },
    importSupplier(memory, opts = {}) {
      ctx.assertOpen();
      return learning.import(ctx.accountOf(opts), memory);
    },
    forgetSupplier(supplierId, opts = {}) {
      return learning.forget(ctx.accountOf(opts), supplierId);
    },
  };
}
