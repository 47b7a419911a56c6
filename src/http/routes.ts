import { REVIEW_ROUTES } from '../review/review-routes.js';
import type { Route } from './routing.js';
import { clientRoutes } from './routes/clients.js';
import { fileRoutes } from './routes/files.js';
import { probeRoutes } from './routes/probes.js';
import { resultRoutes } from './routes/results.js';
import { supplierRoutes } from './routes/suppliers.js';
import { taskRoutes } from './routes/tasks.js';
import { uploadRoutes } from './routes/uploads.js';
import { usageRoutes } from './routes/usage.js';
import { webhookRoutes } from './routes/webhooks.js';
import { workflowRoutes } from './routes/workflows.js';

/**
 * Every route of the HTTP interface, each declared once (src/http/routing.ts says the shape): the
 * fetch handler matches requests against this table, the OpenAPI document is built from it, and the
 * tests of authentication go through it. A request is answered by the first route whose template and
 * method fit; a known path with another method is 405 naming the methods in this order.
 */
export const ROUTES: readonly Route[] = [
  ...clientRoutes,
  ...probeRoutes,
  ...uploadRoutes,
  ...fileRoutes,
  ...workflowRoutes,
  ...resultRoutes,
  ...taskRoutes,
  ...supplierRoutes,
  ...webhookRoutes,
  ...usageRoutes,
  // The review page's own routes, under its path (default /review/): signed-in by session cookie.
  ...REVIEW_ROUTES,
];
