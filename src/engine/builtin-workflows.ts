import type { RulesRecord } from '../conditions/types.js';
import { extractWorkflow, ingestWorkflow } from '../workflows/builtin.js';
import { splitWorkflow } from '../workflows/split.js';
import { validateWorkflow } from '../workflows/validate.js';
import { taskEvents } from '../webhooks/events.js';
import type { EngineContext } from './context.js';

/** Registers the built-in workflows (`<ns>.ingest`, `.extract`, `.validate`, `.split`), then the host's. */
export function registerWorkflows(ctx: EngineContext): void {
  const { registry, persistence, namespace } = ctx;
  registry.register(ingestWorkflow(namespace));
  registry.register(extractWorkflow(namespace));
  registry.register(
    validateWorkflow({
      namespace,
      rules: ctx.rules,
      getRules: async (accountId, rulesId) =>
        (await persistence.getRules(accountId, rulesId)) as RulesRecord | undefined,
      async insertTasks(tasks) {
        for (const task of tasks) {
          if (!(await persistence.getTask(task.accountId, task.id)))
            await persistence.insertTask(task, taskEvents(task, 'created', ctx.eventClock));
        }
        ctx.dispatcher?.poke();
      },
      now: () => new Date().toISOString(),
    }),
  );
  registry.register(
    splitWorkflow({
      namespace,
      copier: ctx.adapters.pdfCopier,
      putTokenLayer: (accountId, fileId, layer) => persistence.putTokenLayer(accountId, fileId, layer),
      fields: () => ctx.catalogue.fieldsets().flatMap((f) => f.fields),
      maxPixels: ctx.settings.ingest.maxPixels,
    }),
  );
  for (const definition of ctx.options.workflows ?? []) registry.register(definition);
}
