import type { AccountSettings } from '../core/accounts.js';
import type { StoredJob } from '../core/jobs.js';
import { companyIdOf } from '../core/company-id.js';

/** The account settings a job record shows (`settings`): key-value pairs, snake case like the record. */
export function jobSettings(account: AccountSettings): Record<string, unknown> {
  return {
    max_file_bytes: account.limits.maxFileBytes,
    max_pages: account.limits.maxPages,
    locale: account.locale ?? null,
  };
}

/** A job as the interface's invocation answer shows it (`status: new`, `version: 1`), ready to store. */
export function newJob(parts: {
  id: string;
  messageId: string;
  created: string;
  accountId: string;
  account: AccountSettings;
  workflowId: string;
  inputs: Record<string, unknown>;
  queue: string;
}): StoredJob {
  const fileId = parts.inputs.file_id;
  return {
    record: {
      id: parts.id,
      company_id: companyIdOf(parts.accountId),
      created: parts.created,
      workflow_id: parts.workflowId,
      inputs: structuredClone(parts.inputs),
      settings: jobSettings(parts.account),
      usage: null,
      file_id: typeof fileId === 'string' ? fileId.toLowerCase() : null,
      status: 'new',
      version: 1,
    },
    accountId: parts.accountId,
    messageId: parts.messageId,
    queue: parts.queue,
    attempts: 0,
    runAfter: 0,
    leaseOwner: null,
    leaseUntil: 0,
  };
}
