import path from 'node:path';
import { readInputFile } from './input-file.js';
import type { JobRecord } from '../core/jobs.js';
import type { Engine } from '../engine-types.js';

/** What one file gave: its JSON line and, when known, its page count (for the summary). */
export interface FileOutcome {
  line: Record<string, unknown>;
  pages?: number;
}

export type FileWork = (file: string) => Promise<FileOutcome>;

const ENDED = new Set<JobRecord['status']>(['succeeded', 'failed', 'cancelled']);

/**
 * Resolves with the job once it has ended (succeeded, failed or cancelled), on job events rather than by
 * polling. A job retried after a transient error goes back to `new` and is waited for again.
 */
export function jobEnded(engine: Engine, jobId: string): Promise<JobRecord> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (job: JobRecord): void => {
      if (settled || !ENDED.has(job.status)) return;
      settled = true;
      off();
      resolve(job);
    };
    const off = engine.on('job', ({ job }) => {
      if (job.id === jobId) finish(job);
    });
    engine.getJob(jobId).then(finish, (error: unknown) => {
      if (settled) return;
      settled = true;
      off();
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

function pagesOf(job: JobRecord): number | undefined {
  const pages = job.usage?.pages;
  return typeof pages === 'number' ? pages : undefined;
}

function withPages(line: Record<string, unknown>, job: JobRecord): FileOutcome {
  const pages = pagesOf(job);
  return pages === undefined ? { line } : { line, pages };
}

async function uploadFile(engine: Engine, file: string, locale?: string): Promise<string> {
  const record = await engine.upload(await readInputFile(file), {
    name: path.basename(file),
    flow: 'v2',
    ...(locale ? { locale } : {}),
  });
  return record.fileId;
}

/** `docex extract`: svc.extract, then the result: `{file, fileId, status, results}`. */
export function extractWork(
  engine: Engine,
  options: { products: string[]; locale?: string | undefined; verbose: boolean },
): FileWork {
  return async (file) => {
    const fileId = await uploadFile(engine, file, options.locale);
    const { job } = await engine.invoke('svc.extract', {
      inputs: { file_id: fileId, product_ids: options.products },
    });
    const ended = await jobEnded(engine, job.id);
    // A failed job makes the result request throw its error: the file's error line.
    const result = await engine.getResult(fileId, { timeoutMs: 0, verbose: options.verbose });
    return withPages({ file, ...result }, ended);
  };
}

/** `docex split`: svc.split, then the children of `components.children`. */
export function splitWork(engine: Engine): FileWork {
  return async (file) => {
    const fileId = await uploadFile(engine, file);
    const { job } = await engine.invoke('svc.split', { inputs: { file_id: fileId } });
    const ended = await jobEnded(engine, job.id);
    const result = await engine.getResult(fileId, { timeoutMs: 0, verbose: true });
    const field =
      result.status === 'FINALISED'
        ? result.results.fields.find((f) => f.name === 'components.children')
        : undefined;
    const children = field && 'children' in field ? (field.children ?? []) : [];
    return withPages({ file, fileId, children }, ended);
  };
}

/**
 * `docex validate`: svc.validate with stored rules, then the result once the job ended (IN PROGRESS
 * when it opened review tasks: the result waits for them) and the tasks it opened.
 */
export function validateWork(
  engine: Engine,
  options: { product: string; rulesId: string; locale?: string | undefined; verbose: boolean },
): FileWork {
  return async (file) => {
    const fileId = await uploadFile(engine, file, options.locale);
    const { job } = await engine.invoke('svc.validate', {
      inputs: { file_id: fileId, product_id: options.product, rules_id: options.rulesId },
    });
    const ended = await jobEnded(engine, job.id);
    // Not the result request's wait for open tasks: the job has ended, so answer at once.
    const result = await engine.getResult(fileId, { timeoutMs: 0, verbose: options.verbose });
    const tasks = (await engine.listTasks({ fileId })).map((t) => ({
      id: t.id,
      note: t.note,
      field_ids: t.field_ids,
      priority: t.priority,
    }));
    return withPages({ file, ...result, tasks }, ended);
  };
}

/** `docex ingest`: the token layer's counts (and text). */
export function ingestWork(engine: Engine, options: { text: boolean }): FileWork {
  return async (file) => {
    const record = await engine.upload(await readInputFile(file), { name: path.basename(file) });
    const layer = await engine.ingest(record.fileId);
    const line: Record<string, unknown> = {
      file,
      fileId: record.fileId,
      pages: layer.pages,
      tokens: layer.tokens.length,
      lines: layer.lines.length,
      blocks: layer.blocks.length,
    };
    if (options.text)
      line.text = layer.lines
        .map((l) => l.tokenIds.map((id) => layer.tokens[id]?.text ?? '').join(' '))
        .join('\n');
    return { line, pages: layer.pages.length };
  };
}

/** The work, then the file (and a split's children) forgotten by the engine once its line is made. */
export function forgetting(engine: Engine, work: FileWork): FileWork {
  return async (file) => {
    const outcome = await work(file);
    const line = outcome.line as { fileId?: unknown; children?: Array<{ file_id?: unknown }> };
    const ids = [line.fileId, ...(line.children ?? []).map((c) => c.file_id)].filter(
      (id): id is string => typeof id === 'string',
    );
    // Their ended jobs too: a job record kept per file would grow memory over a long batch.
    await Promise.all(ids.map((id) => engine.deleteFile(id, { withJobs: true }).catch(() => false)));
    return outcome;
  };
}
