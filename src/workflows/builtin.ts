import type { TokenLayer } from '../core/types.js';
import type { WorkflowDefinition } from './types.js';

export const FILE_ID = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
};

/** `<product>:<version>` as the interface writes it; a bare id (latest version) or a fieldset id too. */
export const PRODUCT_ID = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*(:[0-9]+)?$',
};

function usageOf(layer: TokenLayer): Record<string, unknown> {
  return {
    pages: layer.pages.length,
    ocr_pages: layer.pages.filter((p) => p.source === 'ocr' || p.source === 'text+ocr').length,
  };
}

/** `<ns>.ingest`: reads the file into its token layer (inputs `file_id`, optional `ocr`). */
export function ingestWorkflow(namespace: string): WorkflowDefinition {
  return {
    id: `${namespace}.ingest`,
    inputsSchema: {
      type: 'object',
      required: ['file_id'],
      additionalProperties: false,
      properties: { file_id: FILE_ID, ocr: { enum: ['auto', 'always', 'never'] } },
    },
    async run({ inputs, accountId, engine }) {
      const ocr = inputs.ocr as 'auto' | 'always' | 'never' | undefined;
      // An explicit OCR mode reads the document again in that mode.
      const layer = await engine.ingest(
        inputs.file_id as string,
        ocr ? { accountId, ocr, force: true } : { accountId },
      );
      return { usage: usageOf(layer) };
    },
  };
}

/** `<ns>.extract`: the fields of the given products (inputs `file_id`, `product_ids`). */
export function extractWorkflow(namespace: string): WorkflowDefinition {
  return {
    id: `${namespace}.extract`,
    inputsSchema: {
      type: 'object',
      required: ['file_id', 'product_ids'],
      additionalProperties: false,
      properties: {
        file_id: FILE_ID,
        product_ids: { type: 'array', minItems: 1, maxItems: 32, items: PRODUCT_ID },
      },
    },
    accept(inputs, { accountId, engine }) {
      // Unknown ids (400) and ids the account may not use (403) are refused before anything is queued.
      engine.resolveProducts(inputs.product_ids as string[], { accountId });
    },
    async run({ inputs, accountId, engine }) {
      const fileId = inputs.file_id as string;
      const result = await engine.extract(fileId, inputs.product_ids as string[], {
        accountId,
        verbose: true,
      });
      // Read after extracting: extraction may have read the pictures of a born-digital page.
      const layer = await engine.ingest(fileId, { accountId });
      return { fields: result.fields, usage: usageOf(layer) };
    },
    fromV1: ({ fileId, productIds }) => ({ file_id: fileId, product_ids: productIds }),
  };
}
