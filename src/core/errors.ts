/**
 * Every failure the engine reports is a DocexError: a stable machine-readable `code`, a message for a
 * person, and optional `details` (for schema problems: the offending path). Hosts map codes to their
 * own status codes; the HTTP adapter does so with `httpStatus`.
 */
export type ErrorCode =
  | 'UNSUPPORTED_FILE_TYPE'
  | 'EMPTY_FILE'
  | 'FILE_TOO_LARGE'
  | 'PAGE_LIMIT_EXCEEDED'
  | 'IMAGE_TOO_LARGE'
  | 'PDF_ENCRYPTED'
  | 'PDF_CORRUPT'
  | 'PDF_TOO_COMPLEX'
  | 'PDF_RESOURCE_LIMIT'
  | 'IMAGE_CORRUPT'
  | 'FILE_NOT_FOUND'
  | 'INVALID_ARGUMENT'
  | 'OCR_FAILED'
  | 'OCR_TIMEOUT'
  | 'ENGINE_CLOSED'
  | 'UNKNOWN_PRODUCT'
  | 'PRODUCT_NOT_ALLOWED'
  | 'INVALID_DEFINITION'
  | 'INVALID_INPUTS'
  | 'UNKNOWN_WORKFLOW'
  | 'JOB_NOT_FOUND'
  | 'JOB_NOT_CANCELLABLE'
  | 'JOB_TIMEOUT'
  | 'JOB_INTERRUPTED'
  | 'QUEUE_FULL'
  | 'QUOTA_EXCEEDED'
  | 'NO_RESULT'
  | 'WORKFLOW_FAILED'
  | 'INVALID_RULES'
  | 'RULES_NOT_FOUND'
  | 'TASK_NOT_FOUND'
  | 'TASK_ALREADY_COMPLETED'
  | 'INVALID_CORRECTION'
  | 'WEBHOOK_NOT_FOUND'
  | 'WEBHOOK_TARGET_REFUSED'
  | 'MALFORMED_REQUEST'
  | 'UNAUTHORIZED'
  | 'INVALID_CLIENT'
  | 'INVALID_LOGIN'
  | 'FORBIDDEN'
  | 'REVIEWER_NOT_FOUND'
  | 'LOGIN_TAKEN'
  | 'SUPPLIER_NOT_FOUND'
  | 'UNSUPPORTED_GRANT_TYPE'
  | 'TOO_MANY_REQUESTS'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'INTERNAL';

export interface ErrorDetail {
  path?: string;
  message: string;
}

const HTTP_STATUS: Record<ErrorCode, number> = {
  UNSUPPORTED_FILE_TYPE: 415,
  EMPTY_FILE: 400,
  FILE_TOO_LARGE: 413,
  PAGE_LIMIT_EXCEEDED: 422,
  IMAGE_TOO_LARGE: 422,
  PDF_ENCRYPTED: 422,
  PDF_CORRUPT: 422,
  PDF_TOO_COMPLEX: 422,
  PDF_RESOURCE_LIMIT: 422,
  IMAGE_CORRUPT: 422,
  FILE_NOT_FOUND: 404,
  INVALID_ARGUMENT: 400,
  OCR_FAILED: 500,
  OCR_TIMEOUT: 503,
  ENGINE_CLOSED: 503,
  UNKNOWN_PRODUCT: 403,
  PRODUCT_NOT_ALLOWED: 403,
  INVALID_DEFINITION: 400,
  INVALID_INPUTS: 400,
  UNKNOWN_WORKFLOW: 404,
  JOB_NOT_FOUND: 404,
  JOB_NOT_CANCELLABLE: 409,
  JOB_TIMEOUT: 503,
  JOB_INTERRUPTED: 500,
  QUEUE_FULL: 503,
  QUOTA_EXCEEDED: 429,
  NO_RESULT: 404,
  WORKFLOW_FAILED: 422,
  INVALID_RULES: 422,
  RULES_NOT_FOUND: 404,
  TASK_NOT_FOUND: 404,
  TASK_ALREADY_COMPLETED: 409,
  INVALID_CORRECTION: 422,
  WEBHOOK_NOT_FOUND: 404,
  WEBHOOK_TARGET_REFUSED: 422,
  MALFORMED_REQUEST: 400,
  UNAUTHORIZED: 401,
  INVALID_CLIENT: 401,
  INVALID_LOGIN: 401,
  FORBIDDEN: 403,
  REVIEWER_NOT_FOUND: 404,
  LOGIN_TAKEN: 409,
  SUPPLIER_NOT_FOUND: 404,
  UNSUPPORTED_GRANT_TYPE: 400,
  TOO_MANY_REQUESTS: 429,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INTERNAL: 500,
};

/** Failures worth another try: a recogniser that timed out may finish on a quieter machine. */
const TRANSIENT_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['OCR_TIMEOUT']);

export class DocexError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  /** The same work may succeed when tried again later (a job is then retried with backoff). */
  readonly transient: boolean;
  /** When trying again makes sense (a quota's next period): the HTTP answer's `retry-after`. */
  readonly retryAfterSeconds?: number;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      details?: ErrorDetail[];
      cause?: unknown;
      transient?: boolean;
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DocexError';
    this.code = code;
    this.details = options.details ?? [];
    this.transient = options.transient ?? TRANSIENT_CODES.has(code);
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get httpStatus(): number {
    return HTTP_STATUS[this.code];
  }

  toJSON(): { code: ErrorCode; message: string; details: ErrorDetail[] } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export function isDocexError(value: unknown): value is DocexError {
  return value instanceof DocexError;
}

/** Wraps anything thrown by a library into a DocexError without leaking its stack or internals. */
export function toDocexError(error: unknown, fallback: ErrorCode = 'INTERNAL', message?: string): DocexError {
  if (error instanceof DocexError) return error;
  return new DocexError(fallback, message ?? 'Internal error while processing the document.', {
    cause: error,
  });
}
