import { companyIdOf } from '../../core/company-id.js';
import { DocexError } from '../../core/errors.js';
import { readJson } from '../body.js';
import { errors, jsonBody, noContent, ok, ref } from '../openapi-schemas.js';
import { json } from '../responses.js';
import type { ApiRoute, DocTools, OperationDoc, RouteContext } from '../routing.js';

/**
 * Workflows: invocations and their jobs, and the validation rules they check (also under the company id,
 * as the original service's clients send them). The order matters where templates overlap
 * (`/workflows/jobs/invoke`): it is the order the allowed methods of a 405 are named in.
 */

const RULES = ref('ValidationRules');
const UUID = { type: 'string', format: 'uuid' };

export const workflowRoutes: ApiRoute[] = [
  {
    method: 'PUT',
    path: '/workflows/{companyId}/rules/{rulesId}',
    auth: 'bearer',
    doc: {
      summary: 'Store validation rules (the same as PUT /workflows/validation_rules/{rulesId})',
      pathParams: { companyId: UUID },
      requestBody: jsonBody(RULES),
      responses: { ...ok(RULES), ...errors(400, 401, 404, 422) },
    },
    async handle(c) {
      ownCompany(c, c.params.companyId!);
      const rules = await readJson(c.request, c.maxJsonBytes, 'any');
      return json(await c.engine.putValidationRules(c.params.rulesId!, rules, { accountId: c.accountId }));
    },
  },
  {
    method: 'GET',
    path: '/workflows/{companyId}/rules/{rulesId}',
    auth: 'bearer',
    doc: {
      summary: 'Validation rules',
      pathParams: { companyId: UUID },
      responses: { ...ok(RULES), ...errors(401, 404) },
    },
    async handle(c) {
      ownCompany(c, c.params.companyId!);
      return json(await c.engine.getValidationRules(c.params.rulesId!, { accountId: c.accountId }));
    },
  },
  {
    method: 'DELETE',
    path: '/workflows/{companyId}/rules/{rulesId}',
    auth: 'bearer',
    doc: {
      summary: 'Forget validation rules',
      pathParams: { companyId: UUID },
      responses: { ...noContent('Deleted'), ...errors(401, 404) },
    },
    async handle(c) {
      ownCompany(c, c.params.companyId!);
      await c.engine.deleteValidationRules(c.params.rulesId!, { accountId: c.accountId });
      return new Response(null, { status: 204 });
    },
  },
  {
    method: 'POST',
    path: '/workflows/{workflowId}/invoke',
    auth: 'bearer',
    doc: {
      summary: 'Invoke a workflow and answer once its job has ended (or after 30 s, as it then stands)',
      requestBody: jsonBody({
        type: 'object',
        required: ['inputs'],
        properties: { inputs: { type: 'object' } },
      }),
      responses: { ...ok(ref('JobAnswer')), ...errors(400, 401, 403, 404, 422, 503) },
    },
    async handle(c) {
      const inputs = await inputsOf(c);
      const { job } = await c.engine.invoke(c.params.workflowId!, { inputs }, { accountId: c.accountId });
      return jobEnded(c, job.id);
    },
  },
  {
    method: 'GET',
    path: '/workflows/jobs/{jobId}',
    auth: 'bearer',
    doc: {
      summary: 'A job with its current status',
      responses: { ...ok(ref('JobAnswer')), ...errors(401, 404) },
    },
    handle: async ({ engine, params, accountId }) =>
      json(await engine.getInvocation(params.jobId!, { accountId })),
  },
  {
    method: 'POST',
    path: '/workflows/{workflowId}/jobs',
    auth: 'bearer',
    doc: invokeDoc,
    async handle(c) {
      const inputs = await inputsOf(c);
      return json(await c.engine.invoke(c.params.workflowId!, { inputs }, { accountId: c.accountId }));
    },
  },
  {
    method: 'PUT',
    path: '/workflows/validation_rules/{rules_id}',
    auth: 'bearer',
    doc: {
      summary: 'Store validation rules',
      requestBody: jsonBody(RULES),
      responses: { ...ok(RULES), ...errors(400, 401, 422) },
    },
    async handle({ request, engine, params, accountId, maxJsonBytes }) {
      const rules = await readJson(request, maxJsonBytes, 'any');
      return json(await engine.putValidationRules(params.rules_id!, rules, { accountId }));
    },
  },
  {
    method: 'GET',
    path: '/workflows/validation_rules/{rules_id}',
    auth: 'bearer',
    doc: { summary: 'Read validation rules', responses: { ...ok(RULES), ...errors(401, 404) } },
    handle: async ({ engine, params, accountId }) =>
      json(await engine.getValidationRules(params.rules_id!, { accountId })),
  },
];

/** The invocation's document: the registered workflows' ids and their inputs' schemas. */
function invokeDoc({ workflows, lift }: DocTools): OperationDoc {
  return {
    summary: 'Invoke a workflow',
    pathParams: { workflowId: { enum: workflows.map((w) => w.id) } },
    requestBody: jsonBody({
      type: 'object',
      required: ['inputs'],
      properties: { inputs: { oneOf: workflows.map((w) => ({ title: w.id, ...lift(w.inputsSchema) })) } },
    }),
    responses: { ...ok(ref('JobAnswer')), ...errors(400, 401, 403, 404, 503) },
  };
}

/** The body of an invocation, `{"inputs": {...}}`. */
async function inputsOf({ request, maxJsonBytes }: RouteContext): Promise<Record<string, unknown>> {
  const body = (await readJson(request, maxJsonBytes)) as { inputs?: unknown };
  if (typeof body.inputs !== 'object' || body.inputs === null || Array.isArray(body.inputs)) {
    throw new DocexError('INVALID_INPUTS', 'The body must be {"inputs": {...}}.', {
      details: [{ path: '/inputs', message: 'must be an object' }],
    });
  }
  return body.inputs as Record<string, unknown>;
}

/** The company id in a path must be the caller's own (another account's is unknown, like a bad id). */
function ownCompany({ accountId }: RouteContext, companyId: string): void {
  if (companyId.toLowerCase() !== companyIdOf(accountId)) {
    throw new DocexError('NOT_FOUND', `No company with id ${companyId.slice(0, 64)}.`);
  }
}

/** Waits (up to maxResultWaitMs) for a job to end; answers its invocation record as it then stands. */
async function jobEnded(
  { engine, accountId, maxResultWaitMs }: RouteContext,
  jobId: string,
): Promise<Response> {
  const deadline = Date.now() + maxResultWaitMs;
  for (;;) {
    const invocation = await engine.getInvocation(jobId, { accountId });
    const status = invocation.job.status;
    const remaining = deadline - Date.now();
    if ((status !== 'new' && status !== 'running') || remaining <= 0) return json(invocation);
    // This process's job changes wake the wait; another process's are seen by looking again each second.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(1000, remaining));
      const off = engine.on('job', ({ job }) => {
        if (job.id === jobId) done();
      });
      function done(): void {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  }
}
