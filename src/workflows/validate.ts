import { DocexError } from '../core/errors.js';
import type { StoredTask } from '../core/jobs.js';
import { evaluate } from '../conditions/evaluate.js';
import type { RulesChecker } from '../conditions/rules.js';
import type { Prediction, RulesRecord } from '../conditions/types.js';
import { checksFromV1 } from '../conditions/v1-translate.js';
import type { VerboseFieldResult } from '../extraction/types.js';
import { nameUuid } from '../core/company-id.js';
import { newTaskData } from '../tasks/review-tasks.js';
import { FILE_ID, PRODUCT_ID } from './builtin.js';
import type { WorkflowDefinition } from './types.js';

export interface ValidateDependencies {
  namespace: string;
  rules: RulesChecker;
  getRules(accountId: string, rulesId: string): Promise<RulesRecord | undefined>;
  /** Stores new tasks; a task whose id exists is left as it is (a run taken up again after a crash). */
  insertTasks(tasks: StoredTask[]): Promise<void>;
  now(): string;
}

/**
 * `<ns>.validate`: extracts the product, evaluates each check on the predictions, and opens a review
 * task for every check that holds. Inputs: `file_id`, `product_id`, and `rules_id` (stored rules) or
 * `rules` (a rules record given inline, which is how v1 uploads run). `product_ids` adds products to
 * extract besides the validated one and `create_tasks: false` evaluates without opening tasks (v1
 * `createTask.submit: false`).
 */
export function validateWorkflow(deps: ValidateDependencies): WorkflowDefinition {
  const ns = deps.namespace;
  const qualify = (field: string): string => (field.startsWith(`${ns}.`) ? field : `${ns}.${field}`);

  async function rulesOf(inputs: Record<string, unknown>, accountId: string): Promise<RulesRecord> {
    if (inputs.rules !== undefined) return deps.rules.checkRules(inputs.rules, '/inputs/rules');
    const rulesId = inputs.rules_id as string;
    const rules = await deps.getRules(accountId, rulesId);
    if (!rules)
      throw new DocexError('RULES_NOT_FOUND', `No validation rules with id ${rulesId.slice(0, 256)}.`);
    return rules;
  }

  return {
    id: `${ns}.validate`,
    inputsSchema: {
      type: 'object',
      required: ['file_id', 'product_id'],
      additionalProperties: false,
      properties: {
        file_id: FILE_ID,
        product_id: PRODUCT_ID,
        rules_id: { type: 'string', minLength: 1, maxLength: 256 },
        rules: { type: 'object' },
        product_ids: { type: 'array', maxItems: 32, items: PRODUCT_ID },
        create_tasks: { type: 'boolean' },
      },
    },

    async accept(inputs, { accountId, engine }) {
      const given = ['rules_id', 'rules'].filter((k) => inputs[k] !== undefined);
      if (given.length !== 1) {
        throw new DocexError('INVALID_INPUTS', 'Give exactly one of rules_id and rules.', {
          details: [
            {
              path: given.length === 0 ? '/inputs/rules_id' : '/inputs/rules',
              message: 'exactly one of rules_id and rules',
            },
          ],
        });
      }
      await rulesOf(inputs, accountId);
      engine.resolveProducts(productsOf(inputs), { accountId });
    },

    async run({ inputs, job, accountId, engine }) {
      const rules = await rulesOf(inputs, accountId);
      const fileId = inputs.file_id as string;
      const layer = await engine.ingest(fileId, { accountId });
      const extraction = await engine.extract(fileId, productsOf(inputs), { accountId, verbose: true });
      const predictions = predictionsOf(extraction.fields, ns);
      const tasks: StoredTask[] = [];
      if (inputs.create_tasks !== false) {
        const createdAt = deps.now();
        rules.data.checks.forEach((check, index) => {
          if (!evaluate(check.condition, { predictions })) return;
          const fieldIds = check.field_ids.map(qualify);
          // The same id for the same job and check: a run taken up again after a crash opens no duplicates.
          const id = nameUuid(`task\u0000${job.id}\u0000${index}`);
          const data = newTaskData(
            {
              note: check.note,
              field_ids: fieldIds,
              priority: check.priority ?? 1,
              predictions: Object.fromEntries(
                fieldIds.filter((f) => f in predictions).map((f) => [f, predictions[f]!]),
              ),
              jobId: job.id,
              jobCreated: job.created,
              rulesId: typeof inputs.rules_id === 'string' ? inputs.rules_id : null,
              condition: check.condition,
              fields: extraction.fields
                .filter((f) => fieldIds.includes(`${ns}.${f.name}`))
                // What the reviewer sees: the value, its box, and the alternatives considered; and
                // whether a supplier's memory answered it (its review then counts for or against it).
                .map((f) => ({
                  name: f.name,
                  value: f.value,
                  confidence: f.confidence,
                  boundingBox: f.boundingBox,
                  ...(f.candidates ? { candidates: f.candidates.slice(0, 5) } : {}),
                  ...(f.learned ? { learned: f.learned } : {}),
                })),
            },
            createdAt,
          );
          tasks.push({
            id,
            accountId,
            fileId,
            status: 'open',
            version: 1,
            createdAt,
            data: data as unknown as Record<string, unknown>,
          });
        });
        await deps.insertTasks(tasks);
      }
      return {
        fields: extraction.fields,
        usage: { pages: layer.pages.length, checks: rules.data.checks.length, tasks: tasks.length },
      };
    },

    fromV1({ fileId, productIds, fieldsets, workflowOptions }) {
      if (workflowOptions === undefined) {
        throw new DocexError('INVALID_ARGUMENT', 'The validation workflow needs workflowOptions.', {
          details: [{ path: '/workflowOptions', message: 'is required with workflowId=validate' }],
        });
      }
      const options = deps.rules.checkV1Options(workflowOptions, '/workflowOptions');
      const fieldset = qualify(options.prediction.fieldset);
      if (!fieldsets.includes(fieldset)) {
        throw new DocexError(
          'INVALID_ARGUMENT',
          `The fieldset ${fieldset} is not among the fieldsets of the upload.`,
          {
            details: [
              {
                path: '/workflowOptions/prediction/fieldset',
                message: `must be one of ${fieldsets.join(', ')}`,
              },
            ],
          },
        );
      }
      return {
        file_id: fileId,
        product_id: fieldset,
        product_ids: productIds,
        rules: { data: { checks: checksFromV1(options, qualify) }, schema: true },
        create_tasks: options.prediction.createTask?.submit !== false,
      };
    },
  };
}

function productsOf(inputs: Record<string, unknown>): string[] {
  const extra = (inputs.product_ids as string[] | undefined) ?? [];
  const main = inputs.product_id as string;
  return extra.includes(main) ? extra : [...extra, main];
}

/** `$.predictions`: every extracted field by fully qualified id, as `{value, value_norm, confidence}`. */
export function predictionsOf(
  fields: readonly VerboseFieldResult[],
  namespace: string,
): Record<string, Prediction> {
  const predictions: Record<string, Prediction> = {};
  for (const field of fields) {
    predictions[`${namespace}.${field.name}`] = {
      value: field.value,
      value_norm: field.valueNorm ?? (typeof field.value === 'string' ? field.value : null),
      confidence: field.confidence,
    };
  }
  return predictions;
}
