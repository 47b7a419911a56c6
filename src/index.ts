export { createEngine } from './engine.js';
// The Engine interface, its options and answers (TaskView, ResultRecord, UploadRecordV1/V2, ...).
export type * from './engine-types.js';
export type { JobError, JobRecord, JobStatus, StoredJob, StoredResult, StoredTask } from './core/jobs.js';
export type { EnginePersistence, JobPersistence, JobQuery, TaskQuery } from './ports/engine-persistence.js';
export { createMemoryPersistence } from './adapters/persistence/memory-persistence.js';
export type {
  MemoryPersistenceOptions,
  SharedMemoryPersistence,
} from './adapters/persistence/memory-persistence.js';
export { WEBHOOK_EVENT_TYPES } from './ports/webhook-outbox.js';
export type {
  DeliveryClaim,
  DeliveryQuery,
  DeliveryStatus,
  FileState,
  OutboxEvent,
  RaiseEvents,
  StoredDelivery,
  StoredWebhook,
  WebhookEventType,
  WebhookOutbox,
} from './ports/webhook-outbox.js';
export type { WebhookAnswer, WebhookRequest, WebhookSender } from './ports/webhook-sender.js';
export { createNodeWebhookSender } from './adapters/http/webhook-sender.js';
export type { DeliveryView, WebhookView, WebhookWithSecret } from './webhooks/subscriptions.js';
export type { WebhookBody, WebhookEventData } from './webhooks/events.js';
export type {
  V1Invocation,
  WorkflowContext,
  WorkflowDefinition,
  WorkflowEngine,
  WorkflowOutput,
} from './workflows/types.js';
export type { RetryPolicy } from './queue/job-queue.js';
export { DocexError, isDocexError } from './core/errors.js';
export type { ErrorCode, ErrorDetail } from './core/errors.js';
export type { AccountLimits, AccountSettings } from './core/accounts.js';
export { DEFAULT_LIMITS } from './core/accounts.js';
export type {
  Block,
  Box,
  FileRecord,
  Line,
  MediaType,
  Page,
  PageSource,
  Token,
  TokenLayer,
} from './core/types.js';
export type { FileStore } from './ports/file-store.js';
export type { GreyImage, ImageBackend } from './ports/image-backend.js';
export type { OcrEngine, OcrOptions, OcrWord } from './ports/ocr-engine.js';
export type { ImagePlacement, PdfDocument, PdfPage, PdfReader, TextRun } from './ports/pdf-reader.js';
export type { OcrMode } from './documents/ingest.js';
export type { UploadInput } from './documents/read-limited.js';
export type { TesseractOcr, TesseractOcrOptions } from './adapters/ocr/tesseract-ocr.js';
export type { NativeTesseractOcrOptions } from './adapters/ocr/native-tesseract-ocr.js';
export type { DefaultOcrOptions, OcrEngineChoice } from './default-adapters.js';
export type {
  BoundingBox,
  ExtractionResult,
  FieldResult,
  TableValue,
  VerboseFieldResult,
} from './extraction/types.js';
export type { FieldDefinition, FieldKind, FieldsetDefinition, ProductDefinition } from './products/types.js';
export type { Catalogue, ResolvedSelection } from './products/catalogue.js';
export { createFetchHandler } from './http/fetch-handler.js';
export type { FetchHandler, FetchHandlerOptions } from './http/fetch-handler.js';
export type { TokenOptions } from './http/tokens.js';
export type { ReviewTask } from './tasks/review-tasks.js';
export type { RulesRecord, Check, Condition } from './conditions/types.js';
export type { ResultField, SplitFieldResult } from './extraction/types.js';
export type { ReviewOptions } from './review/review-routes.js';
export type { Logger } from './ports/logger.js';
export { silentLogger } from './ports/logger.js';
export { logEngine } from './observability/engine-log.js';
export type { UsageDay, UsageFigures, UsageLedger } from './ports/usage-ledger.js';
export type { EngineMetrics, MetricsSource, RequestObservation } from './observability/metrics.js';
