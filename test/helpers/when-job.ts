import type { Engine, JobRecord } from '../../src/index.js';

/** Resolves with the job record once the job reaches one of the statuses (through events, no polling). */
export function whenJob(
  engine: Engine,
  jobId: string,
  statuses: JobRecord['status'][],
  accountId = 'default',
): Promise<JobRecord> {
  return new Promise((resolve) => {
    const off = engine.on('job', ({ job }) => {
      if (job.id === jobId && statuses.includes(job.status)) {
        off();
        resolve(job);
      }
    });
    void engine.getJob(jobId, { accountId }).then((job) => {
      if (statuses.includes(job.status)) {
        off();
        resolve(job);
      }
    });
  });
}
