/**
 * The route table (src/http/routes.ts) against what the handler and the OpenAPI document make of it:
 * every documented route is an operation of the document and every operation a route; each method
 * and path is declared once; a known path with another method is 405 naming the methods it has; a
 * malformed id is 400 on every route with one; logs and metrics name routes by template, never by id.
 * The handler is called with Requests (no socket).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, type FetchHandler } from '../../src/http/fetch-handler.js';
import { openApiDocument } from '../../src/http/openapi.js';
import { ROUTES } from '../../src/http/routes.js';
import { paramNames, pathsOf, type ApiRoute } from '../../src/http/routing.js';
import { createEngine, type Engine } from '../../src/index.js';
import type { RequestObservation } from '../../src/observability/metrics.js';
import { request } from '../helpers/request.js';
import type { Json } from './harness.js';

const API = ROUTES.filter((r): r is ApiRoute => r.kind !== 'review');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** A template with every parameter filled (with a value no literal segment has). */
const filled = (template: string, value = 'x1') => template.replace(/\{[^}]+\}/g, value);

let engine: Engine;
let handler: FetchHandler;
const observed: RequestObservation[] = [];

beforeAll(() => {
  engine = createEngine({ ingest: { ocr: 'never' } });
  handler = createFetchHandler(engine, {
    tokens: { secret: 'routes-test-secret-0123456789abcdef' },
    metrics: { source: { render: async () => ({ contentType: 'text/plain', body: '' }) } },
    onRequest: (o) => observed.push(o),
  });
});
afterAll(() => engine.close());

describe('the route table', () => {
  it('has each method and path once, and distinct parameter names in each template', () => {
    const seen = new Set<string>();
    for (const route of ROUTES) {
      for (const path of pathsOf(route)) {
        const key = `${route.kind ?? 'api'} ${route.method} ${filled(path, '{}')}`;
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
        const names = paramNames(path);
        expect(new Set(names).size, path).toBe(names.length);
      }
    }
  });

  it('is the OpenAPI document: every documented route an operation, every operation a route', () => {
    const doc = openApiDocument(engine) as { paths: Record<string, Record<string, Json>> };
    const documented = API.filter((r) => r.doc !== false).map((r) => `${r.method} ${r.path}`);
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(documented.sort());
    // What is not in the document: the document itself, the metrics, the aliases and the review page.
    expect(API.filter((r) => r.doc === false).map((r) => r.path)).toEqual(['/openapi.json', '/metrics']);
    for (const alias of API.flatMap((r) => r.aliases ?? [])) expect(doc.paths).not.toHaveProperty([alias]);
    expect(Object.keys(doc.paths).some((p) => p.includes('review') || p.startsWith('api/'))).toBe(false);
    // Each operation declares its path parameters, and asks for the token when its route needs one.
    for (const route of API.filter((r) => r.doc !== false)) {
      const operation = doc.paths[route.path]![route.method.toLowerCase()];
      const declared = ((operation.parameters ?? []) as Json[])
        .filter((p: Json) => p.in === 'path')
        .map((p: Json) => p.name);
      expect(declared, `${route.method} ${route.path}`).toEqual(paramNames(route.path));
      expect(operation.security, `${route.method} ${route.path}`).toEqual(
        route.auth === 'bearer' ? [{ bearer: [] }] : undefined,
      );
    }
  });

  it('answers a known path with another method 405, naming the methods it has (HEAD with GET)', async () => {
    const byPath = new Map<string, string[]>();
    for (const route of API) {
      for (const path of pathsOf(route)) byPath.set(path, [...(byPath.get(path) ?? []), route.method]);
    }
    let checked = 0;
    for (const [path, methods] of byPath) {
      const allowed = methods.includes('GET') ? [...methods, 'HEAD'] : methods;
      for (const method of METHODS.filter((m) => !methods.includes(m))) {
        const answer = await request(handler, filled(path), {
          method,
          ...(method === 'GET' ? {} : { body: '{}' }),
        });
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(((await answer.json()) as Json).error.code).toBe('METHOD_NOT_ALLOWED');
        expect(answer.headers.get('allow')!.split(', ').sort(), `${method} ${path}`).toEqual(allowed.sort());
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('answers a malformed id with 400 on every API route with a path parameter, token or not', async () => {
    const withParams = API.flatMap((route) =>
      pathsOf(route)
        .filter((path) => paramNames(path).length > 0)
        .map((path) => [route.method, filled(path, '%E0%A4%A')] as const),
    );
    expect(withParams.length).toBeGreaterThan(20);
    for (const [method, path] of withParams) {
      const answer = await request(handler, path, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(((await answer.json()) as Json).error.code).toBe('MALFORMED_REQUEST');
    }
  });

  it('names every route in logs and metrics by its template, never by an id', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const route of API) {
      for (const path of pathsOf(route)) {
        observed.length = 0;
        await request(handler, filled(path, id), {
          method: route.method,
          ...(route.method === 'GET' ? {} : { body: '{}' }),
        });
        expect(observed).toHaveLength(1);
        const name = observed[0]!.route;
        expect(name, path).not.toContain(id);
        expect(name.includes('{}'), path).toBe(paramNames(path).length > 0);
      }
    }
  });
});
