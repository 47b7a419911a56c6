import { DocexError, type ErrorDetail } from '../core/errors.js';
import type { StoredTask } from '../core/jobs.js';
import type { Condition, Prediction } from '../conditions/types.js';
import { READERS } from '../extraction/readers.js';
import type { BoundingBox, ColumnRole, TableValue, VerboseFieldResult } from '../extraction/types.js';
import type { FieldKind } from '../products/types.js';
import type { Token } from '../core/types.js';
import { boundingBoxOf } from '../extraction/view.js';

/** A review task as the library and the HTTP surface show it (docs/decisions.md), plus its history. */
export interface ReviewTask {
  id: string;
  fileId: string;
  status: 'open' | 'completed';
  note: string;
  /** Fully qualified field ids (`svc.invoice.total`) to review. */
  field_ids: string[];
  priority: number;
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string;
  /** The predictions of `field_ids` when the task was created. */
  predictions: Record<string, Prediction>;
  /** The reviewer's values by field id once completed; null while open. */
  corrections: Record<string, string | TableValue | null> | null;
  completedAt: string | null;
  /** What happened to the task, oldest first, and who did it (when a person or a client did). */
  history: TaskHistoryEntry[];
}

/** Who changed a task: a reviewer signed in to the review page, or an API client. */
export type TaskActor =
  { kind: 'reviewer'; id: string; login: string; name: string } | { kind: 'client'; id: string };

export interface TaskHistoryEntry {
  at: string;
  action: 'created' | 'completed';
  values?: Record<string, unknown>;
  by?: TaskActor;
}

/** What the engine keeps besides the record: where the task came from and the fields it corrects. */
interface TaskData extends Omit<ReviewTask, 'id' | 'fileId' | 'status' | 'createdAt'> {
  jobId: string;
  /** `created` of the validation job: corrections merge into the result as a run just after it. */
  jobCreated: string;
  rulesId: string | null;
  condition: Condition;
  /** Result fields as corrected (set on completion). */
  correctedFields?: VerboseFieldResult[];
  /** The fields of the task as extracted (to build corrected fields). */
  fields: VerboseFieldResult[];
}

export function newTaskData(
  parts: Omit<TaskData, 'corrections' | 'completedAt' | 'history'>,
  createdAt: string,
): TaskData {
  return { ...parts, corrections: null, completedAt: null, history: [{ at: createdAt, action: 'created' }] };
}

/** The fields of a task as extracted, with their boxes and alternatives (for the review page). */
export function taskFields(stored: StoredTask): VerboseFieldResult[] {
  return (stored.data as unknown as TaskData).fields;
}

export function toReviewTask(stored: StoredTask): ReviewTask {
  const data = stored.data as unknown as TaskData;
  return {
    id: stored.id,
    fileId: stored.fileId,
    status: stored.status,
    note: data.note,
    field_ids: data.field_ids,
    priority: data.priority,
    createdAt: stored.createdAt,
    predictions: data.predictions,
    corrections: data.corrections,
    completedAt: data.completedAt,
    history: data.history,
  };
}

/** The corrected result fields a completed task contributes, as a run just after its validation job. */
export function correctionRun(
  stored: StoredTask,
): { jobCreated: string; timestamp: string; fields: VerboseFieldResult[] } | undefined {
  const data = stored.data as unknown as TaskData;
  if (stored.status !== 'completed' || !data.correctedFields) return undefined;
  return {
    jobCreated: `${data.jobCreated}~${data.completedAt ?? ''}`,
    timestamp: data.completedAt ?? stored.createdAt,
    fields: data.correctedFields,
  };
}

/**
 * What a completed task teaches about its document's supplier: every reviewed value (corrected or
 * confirmed; tables left out) by result name, and for fields whose extraction used the supplier's
 * memory, whether the reviewer kept that value.
 */
export function lessonOfTask(
  stored: StoredTask,
): { values: Record<string, string | null>; outcomes: Record<string, boolean> } | undefined {
  const data = stored.data as unknown as TaskData;
  if (stored.status !== 'completed' || !data.correctedFields) return undefined;
  const values: Record<string, string | null> = {};
  for (const field of data.correctedFields)
    if (typeof field.value === 'string' || field.value === null) values[field.name] = field.value;
  const outcomes: Record<string, boolean> = {};
  for (const field of data.fields)
    if (field.learned && field.name in values) outcomes[field.name] = values[field.name] === field.value;
  return { values, outcomes };
}

export interface CompletionContext {
  /** The engine's namespace, to read result names (`invoice.total`) as field ids. */
  namespace: string;
  /** The kind of a field by result name, to check a corrected value. */
  kindOf(name: string): FieldKind | undefined;
  now: string;
  /** Who completes the task (left out of the history when not known: a host calling the library). */
  by?: TaskActor;
  /** The document's words, when the completion says which words a value was taken from (`tokenIds`). */
  tokens?: readonly Token[];
}

/** Words a reviewer may name for one value at most. */
const MAX_TAKEN_TOKENS = 200;

/** Problems listed at most in a refusal. */
const MAX_PROBLEMS = 100;

/**
 * The task completed with the reviewer's values. Keys are field ids of the task (`svc.invoice.total`)
 * or their result names (`invoice.total`); each value is checked against the field's kind and stored
 * in its canonical form (null says the document has no value). Every problem is reported at once.
 */
export function completeTask(
  stored: StoredTask,
  values: unknown,
  context: CompletionContext,
  tokenIds?: unknown,
): StoredTask {
  if (stored.status !== 'open') {
    throw new DocexError('TASK_ALREADY_COMPLETED', `Task ${stored.id} is already completed.`);
  }
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new DocexError('INVALID_CORRECTION', 'The values must be an object of field id to value.', {
      details: [{ path: '/values', message: 'must be an object' }],
    });
  }
  const data = stored.data as unknown as TaskData;
  const prefix = `${context.namespace}.`;
  const fields = data.field_ids.join(', ');
  const keys = Object.keys(values);
  // Each field may be named twice (by id and by result name, refused below), and unknown names are
  // reported one by one; a body with far more names than that is refused at once, before any work per
  // key (and before a problem per key).
  if (keys.length > 2 * data.field_ids.length + MAX_PROBLEMS) {
    throw new DocexError(
      'INVALID_CORRECTION',
      `The corrected values name ${keys.length} fields; the task has ${data.field_ids.length} (${fields}).`,
      { details: [{ path: '/values', message: `names more fields than the task has` }] },
    );
  }
  const corrections = Object.create(null) as Record<string, string | TableValue | null>;
  const problems: ErrorDetail[] = [];
  for (const key of keys) {
    const raw = (values as Record<string, unknown>)[key];
    const fieldId = key.startsWith(prefix) ? key : prefix + key;
    const path = `/values/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!data.field_ids.includes(fieldId)) {
      problems.push({ path, message: `is not a field of this task (${fields})` });
      continue;
    }
    if (fieldId in corrections) {
      problems.push({ path, message: 'gives a field a second time (as a field id and as a result name)' });
      continue;
    }
    // A value confirmed as extracted stays exactly as extracted, whatever its kind and form: completing
    // never changes what the reviewer did not change.
    const extracted = data.fields.find((f) => prefix + f.name === fieldId);
    if (extracted && raw !== undefined && JSON.stringify(raw) === JSON.stringify(extracted.value)) {
      corrections[fieldId] = structuredClone(extracted.value) as string | TableValue | null;
      continue;
    }
    const checked = checkValue(raw, context.kindOf(fieldId.slice(prefix.length)));
    if (checked.ok) corrections[fieldId] = checked.value;
    else problems.push({ path, message: checked.problem });
  }
  const located = takenBoxes(tokenIds, corrections, prefix, context.tokens ?? [], problems);
  if (problems.length > 0) {
    problems.splice(MAX_PROBLEMS);
    throw new DocexError(
      'INVALID_CORRECTION',
      `The corrected values are not valid: ${problems[0]!.path}: ${problems[0]!.message}.`,
      {
        details: problems,
      },
    );
  }
  const correctedFields = data.fields.map((field) => {
    const fieldId = prefix + field.name;
    if (!(fieldId in corrections)) return field;
    const value = corrections[fieldId]!;
    const same = JSON.stringify(value) === JSON.stringify(field.value);
    // A value taken from words of the page is where those words are; a confirmed value keeps where it
    // was read; a typed one has no location.
    const box: BoundingBox | null = located.get(fieldId) ?? (same ? field.boundingBox : null);
    return { name: field.name, value, confidence: 1, boundingBox: box };
  });
  // A field the extraction did not have (a rule on another product's field) is added as corrected.
  for (const [fieldId, value] of Object.entries(corrections)) {
    const name = fieldId.slice(prefix.length);
    if (!data.fields.some((f) => f.name === name))
      correctedFields.push({ name, value, confidence: 1, boundingBox: located.get(fieldId) ?? null });
  }
  const next: TaskData = {
    ...data,
    corrections,
    completedAt: context.now,
    correctedFields,
    history: [
      ...data.history,
      {
        at: context.now,
        action: 'completed',
        values: corrections,
        ...(context.by ? { by: context.by } : {}),
      },
    ],
  };
  return {
    ...stored,
    status: 'completed',
    version: stored.version + 1,
    data: next as unknown as Record<string, unknown>,
  };
}

/**
 * The boxes of values taken from words (`tokenIds`: field id or result name to the ids of the words,
 * all on one page), checked against the corrections and the document's words; problems are added.
 */
function takenBoxes(
  tokenIds: unknown,
  corrections: Record<string, unknown>,
  prefix: string,
  tokens: readonly Token[],
  problems: ErrorDetail[],
): Map<string, BoundingBox> {
  const boxes = new Map<string, BoundingBox>();
  if (tokenIds === undefined) return boxes;
  if (typeof tokenIds !== 'object' || tokenIds === null || Array.isArray(tokenIds)) {
    problems.push({ path: '/tokenIds', message: 'must be an object of field id to word ids' });
    return boxes;
  }
  const byId = new Map(tokens.map((t) => [t.id, t]));
  for (const [key, raw] of Object.entries(tokenIds).slice(0, MAX_PROBLEMS)) {
    const fieldId = key.startsWith(prefix) ? key : prefix + key;
    const path = `/tokenIds/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (corrections[fieldId] === undefined || corrections[fieldId] === null) {
      problems.push({ path, message: 'names a field without a value in values' });
      continue;
    }
    if (
      !Array.isArray(raw) ||
      raw.length === 0 ||
      raw.length > MAX_TAKEN_TOKENS ||
      !raw.every((id) => Number.isSafeInteger(id))
    ) {
      problems.push({ path, message: `must be a list of 1 to ${MAX_TAKEN_TOKENS} word ids` });
      continue;
    }
    const taken = (raw as number[]).map((id) => byId.get(id));
    if (taken.some((t) => t === undefined)) {
      problems.push({ path, message: 'names a word the document does not have' });
      continue;
    }
    const words = taken as Token[];
    if (words.some((t) => t.pageNum !== words[0]!.pageNum)) {
      problems.push({ path, message: 'names words of more than one page' });
      continue;
    }
    boxes.set(fieldId, boundingBoxOf(words)!);
  }
  return boxes;
}

const DOCUMENT_TYPES = ['invoice', 'credit_note', 'receipt', 'bill', 'statement', 'other'];
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const PLAIN_DECIMAL = /^([+-]?)(\d{1,15})(?:\.(\d{1,6}))?$/;

type Checked = { ok: true; value: string | TableValue | null } | { ok: false; problem: string };
const ok = (value: string | TableValue | null): Checked => ({ ok: true, value });
const problem = (text: string): Checked => ({ ok: false, problem: text });

/** A corrected value in canonical form, or the problem with it. */
function checkValue(raw: unknown, kind: FieldKind | undefined): Checked {
  if (raw === null) return ok(null);
  if (kind === 'table') return checkTable(raw);
  if (typeof raw === 'number' && (kind === 'amount' || kind === 'integer')) {
    if (!Number.isFinite(raw)) return problem('must be a finite number');
    raw = String(Math.round(raw * 1e6) / 1e6);
  }
  if (typeof raw !== 'string') return problem('must be a string or null');
  const text = raw.trim();
  if (text === '') return problem('must not be empty (send null for no value)');
  if (text.length > 2000) return problem('is longer than 2000 characters');
  switch (kind) {
    case 'date':
      return isIsoDate(text) ? ok(text) : problem('must be a date YYYY-MM-DD');
    case 'amount': {
      const amount = canonicalAmount(text);
      return amount === undefined ? problem('must be an amount like 1234.50') : ok(amount);
    }
    case 'integer':
      return /^\d{1,9}$/.test(text) ? ok(String(Number(text))) : problem('must be a whole number');
    case 'documentType':
      return DOCUMENT_TYPES.includes(text)
        ? ok(text)
        : problem(`must be one of ${DOCUMENT_TYPES.join(', ')}`);
    case undefined:
    case 'text':
    case 'paymentMethod':
      return ok(text);
    default: {
      const read = READERS[kind]?.(text, {});
      return read ? ok(read.value) : problem(`is not a valid ${kind}`);
    }
  }
}

function isIsoDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `1234.5` -> `1234.50`, `007` -> `7.00`, `1.5000` -> `1.50`, `-0` -> `0.00`: as extracted amounts are written. */
function canonicalAmount(text: string): string | undefined {
  const m = PLAIN_DECIMAL.exec(text);
  if (!m) return undefined;
  const whole = m[2]!.replace(/^0+(?=\d)/, '');
  const fraction = (m[3] ?? '').replace(/0+$/, '').padEnd(2, '0');
  const zero = /^0+$/.test(whole) && /^0+$/.test(fraction);
  return `${m[1] === '-' && !zero ? '-' : ''}${whole}.${fraction}`;
}

/** A line-item table: headers are strings, a cell is null or `{value, boundingBox}` with a string value. */
function checkTable(raw: unknown): Checked {
  const table = raw as { headers?: unknown; rows?: unknown };
  if (
    typeof raw !== 'object' ||
    raw === null ||
    !Array.isArray(table.headers) ||
    !Array.isArray(table.rows)
  ) {
    return problem('must be a table {headers, rows}');
  }
  if (!table.headers.every((h) => typeof h === 'string')) return problem('must have string headers');
  const rows: TableValue['rows'] = [];
  for (const row of table.rows) {
    if (!Array.isArray(row)) return problem('must have rows that are lists of cells');
    const cells: TableValue['rows'][number] = [];
    for (const cell of row) {
      if (cell === null) cells.push(null);
      else if (typeof cell === 'object' && typeof (cell as { value?: unknown }).value === 'string') {
        const box = (cell as { boundingBox?: unknown }).boundingBox;
        cells.push({ value: (cell as { value: string }).value, boundingBox: isBox(box) ? box : null });
      } else return problem('must have cells that are null or {value, boundingBox}');
    }
    rows.push(cells);
  }
  // Column roles (`types`), when given, are kept: one per heading, a known role or null.
  const types = (raw as { types?: unknown }).types;
  if (types === undefined) return ok({ headers: table.headers as string[], rows });
  if (
    !Array.isArray(types) ||
    types.length !== table.headers.length ||
    !types.every((t) => t === null || (typeof t === 'string' && COLUMN_ROLES.has(t)))
  ) {
    return problem(`must have types, one per heading: null or one of ${[...COLUMN_ROLES].join(', ')}`);
  }
  return ok({ headers: table.headers as string[], rows, types: types as Array<ColumnRole | null> });
}

const COLUMN_ROLES: ReadonlySet<string> = new Set<ColumnRole>([
  'description',
  'quantity',
  'unitPrice',
  'amount',
  'taxRate',
  'code',
  'unit',
]);

function isBox(value: unknown): value is BoundingBox {
  const box = value as BoundingBox | null;
  return (
    typeof box === 'object' &&
    box !== null &&
    Number.isInteger(box.pageNum) &&
    typeof box.topLeft?.x === 'number' &&
    typeof box.topLeft?.y === 'number' &&
    typeof box.bottomRight?.x === 'number' &&
    typeof box.bottomRight?.y === 'number' &&
    Array.isArray(box.tokenIds) &&
    box.tokenIds.every((id) => Number.isInteger(id))
  );
}
