import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

import type { Engine } from '../engine-types.js';

/** One answered HTTP request, as the fetch handler reports it. */
export interface RequestObservation {
  method: string;
  /** The route's template (`/files/{}/result`), never the path with its ids. */
  route: string;
  status: number;
  ms: number;
}

/** What `GET /metrics` serves: the text format and its content type. */
export interface MetricsSource {
  render(): Promise<{ contentType: string; body: string }>;
}

export interface EngineMetrics extends MetricsSource {
  /** Counts a request (give it to the fetch handler as `onRequest`). */
  observeRequest(observation: RequestObservation): void;
  /** Stops listening to the engine. */
  close(): void;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const JOB_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/**
 * Prometheus metrics of an engine and the HTTP requests it answers, in a registry of their own (the
 * host's global registry is left alone): requests by route and status with durations, jobs by workflow
 * and state, job durations, queue depth, pages read from the text layer and by OCR, OCR time, review
 * tasks open, usage (pages of jobs by account), and the process's own (memory, CPU, event loop lag).
 */
export function createEngineMetrics(
  engine: Engine,
  options: { processMetrics?: boolean } = {},
): EngineMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'docex_' });
  const requests = new Histogram({
    name: 'docex_http_request_duration_seconds',
    help: 'HTTP requests answered, by method, route and status, with their duration',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  const jobs = new Counter({
    name: 'docex_jobs_total',
    help: 'Job changes to a state (new, running, succeeded, failed, cancelled) made by this process, by workflow',
    labelNames: ['workflow', 'state'] as const,
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'docex_job_duration_seconds',
    help: 'Time the last run of a job that ended took, by workflow and outcome',
    labelNames: ['workflow', 'state'] as const,
    buckets: JOB_SECONDS,
    registers: [registry],
  });
  const pages = new Counter({
    name: 'docex_pages_read_total',
    help: 'Pages read into token layers, by source (text layer or OCR)',
    labelNames: ['source'] as const,
    registers: [registry],
  });
  const ocrSeconds = new Counter({
    name: 'docex_ocr_seconds_total',
    help: 'Time spent recognising text (summed over pages read at once)',
    registers: [registry],
  });
  const usagePages = new Counter({
    name: 'docex_usage_pages_total',
    help: 'Pages of the jobs that ended (the measure of usage and quotas), by account',
    labelNames: ['account'] as const,
    registers: [registry],
  });
  // Read once per scrape (render), before the registry collects.
  const queue = new Gauge({
    name: 'docex_queue_jobs',
    help: 'Jobs of this process waiting (queued, including retries) and running',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const tasksOpen = new Gauge({
    name: 'docex_tasks_open',
    help: 'Review tasks open, all accounts',
    registers: [registry],
  });

  const offs = [
    engine.on('job', ({ accountId, job }) => {
      jobs.inc({ workflow: job.workflow_id, state: job.status });
      if (job.status !== 'succeeded' && job.status !== 'failed') return;
      const ms = job.usage?.processing_ms;
      if (typeof ms === 'number')
        jobSeconds.observe({ workflow: job.workflow_id, state: job.status }, ms / 1000);
      const jobPages = job.usage?.pages;
      if (typeof jobPages === 'number' && jobPages > 0) usagePages.inc({ account: accountId }, jobPages);
    }),
    engine.on('read', ({ textPages, ocrPages, ocrMs }) => {
      if (textPages > 0) pages.inc({ source: 'text' }, textPages);
      if (ocrPages > 0) pages.inc({ source: 'ocr' }, ocrPages);
      if (ocrMs > 0) ocrSeconds.inc(ocrMs / 1000);
    }),
  ];

  return {
    observeRequest({ method, route, status, ms }) {
      requests.observe({ method, route, status: String(status) }, ms / 1000);
    },
    async render() {
      const stats = await engine.stats();
      queue.set({ state: 'queued' }, stats.jobsQueued);
      queue.set({ state: 'running' }, stats.jobsRunning);
      tasksOpen.set(stats.tasksOpen);
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    close() {
      for (const off of offs) off();
    },
  };
}
