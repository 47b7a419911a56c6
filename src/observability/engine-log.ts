import type { Engine } from '../engine-types.js';
import type { Logger } from '../ports/logger.js';

/**
 * Writes what an engine does to a logger: every job change (info; a failure at warn, with its code),
 * every document read (debug: pages by source, ms, OCR ms) and every fault for the operator (error,
 * with the cause's stack under `err`). Lines carry `accountId`, `jobId` and `fileId`, never document
 * content. Answers the function that stops it.
 */
export function logEngine(engine: Engine, logger: Logger): () => void {
  const offs = [
    engine.on('job', ({ accountId, job }) => {
      const fields = {
        accountId,
        jobId: job.id,
        ...(job.file_id ? { fileId: job.file_id } : {}),
        workflow: job.workflow_id,
        status: job.status,
        version: job.version,
        ...(job.error ? { code: job.error.code } : {}),
        ...(job.usage && (job.status === 'succeeded' || job.status === 'failed') ? { usage: job.usage } : {}),
      };
      if (job.status === 'failed') logger.warn(fields, `job ${job.status}`);
      else logger.info(fields, `job ${job.status}`);
    }),
    engine.on('read', ({ accountId, fileId, textPages, ocrPages, ms, ocrMs }) => {
      logger.debug(
        { accountId, fileId, textPages, ocrPages, ms: Math.round(ms), ocrMs: Math.round(ocrMs) },
        'document read',
      );
    }),
    engine.on('error', ({ jobId, error }) => {
      const cause = error.cause instanceof Error ? error.cause : undefined;
      logger.error(
        {
          ...(jobId ? { jobId } : {}),
          code: error.code,
          err: cause ? { type: cause.name, message: cause.message, stack: cause.stack } : undefined,
        },
        error.message,
      );
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
