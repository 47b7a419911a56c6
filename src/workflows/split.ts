import type { TokenLayer } from '../core/types.js';
import type { SplitFieldResult } from '../extraction/types.js';
import type { PdfPageCopier } from '../ports/pdf-page-copier.js';
import type { FieldDefinition } from '../products/types.js';
import {
  encodeGreyTiff,
  isPagedImage,
  openPagedImage,
  type PagedImageType,
} from '../documents/multi-page-images.js';
import { nameUuid } from '../core/company-id.js';
import { planSplit } from '../split/boundaries.js';
import { pageFeatures } from '../split/page-features.js';
import { sliceTokenLayer } from '../split/slice-layer.js';
import { FILE_ID } from './builtin.js';
import type { WorkflowDefinition } from './types.js';

export interface SplitDependencies {
  namespace: string;
  copier(): Promise<PdfPageCopier>;
  putTokenLayer(accountId: string, fileId: string, layer: TokenLayer): Promise<void>;
  /** Every field the catalogue knows (the split reads a few of them on each page). */
  fields(): FieldDefinition[];
  /** Largest page decoded when a TIFF's pages are written out for its children. */
  maxPixels: number;
}

/**
 * `<ns>.split`: finds where each document of a file starts (page marks, titles, numbers, suppliers,
 * totals, blank separators) and stores each as a child file with its pages copied and its token layer
 * carried over. The parent's result is the field `components.children`.
 */
/** The children of a TIFF: a grey TIFF of each range of pages, decoded one page at a time. */
function tiffSlices(
  bytes: Uint8Array,
  mediaType: PagedImageType,
  ranges: Array<[number, number]>,
  maxPixels: number,
): Uint8Array[] {
  const paged = openPagedImage(bytes, mediaType);
  return ranges.map(([first, last]) =>
    encodeGreyTiff(Array.from({ length: last - first + 1 }, (_, i) => paged.page(first + i, maxPixels))),
  );
}

export function splitWorkflow(deps: SplitDependencies): WorkflowDefinition {
  return {
    id: `${deps.namespace}.split`,
    inputsSchema: {
      type: 'object',
      required: ['file_id'],
      additionalProperties: false,
      properties: { file_id: FILE_ID },
    },
    async run({ inputs, job, accountId, engine }) {
      const fileId = inputs.file_id as string;
      const layer = await engine.ingest(fileId, { accountId });
      const parent = await engine.getFile(fileId, { accountId });
      const locale = parent.locale ?? engine.getAccount(accountId).locale;
      const plan = planSplit(pageFeatures(layer, deps.fields(), locale));
      const stored = await engine.readFile(fileId, { accountId });
      const ranges = plan.segments.map((s) => s.pages);
      const contents =
        parent.mediaType === 'application/pdf'
          ? await (await deps.copier()).copyPages(stored, ranges)
          : isPagedImage(parent.mediaType) && ranges.length > 1
            ? tiffSlices(stored, parent.mediaType, ranges, deps.maxPixels)
            : [stored];
      const children: NonNullable<SplitFieldResult['children']> = [];
      for (const [index, segment] of plan.segments.entries()) {
        const [first, last] = segment.pages;
        // The same ids for the same job: a run taken up again after a crash replaces, never duplicates.
        const childId = nameUuid(`child\u0000${job.id}\u0000${index}`);
        const child = await engine.upload(contents[index]!, {
          accountId,
          fileId: childId,
          enforcePageLimit: false,
          parent: { fileId, pages: segment.pages, confidence: segment.confidence },
          ...(parent.flow ? { flow: parent.flow } : {}),
          ...(parent.name ? { name: `${parent.name} (pages ${first}-${last})` } : {}),
          ...(parent.tags ? { tags: parent.tags } : {}),
          ...(parent.locale ? { locale: parent.locale } : {}),
        });
        await deps.putTokenLayer(accountId, child.fileId, sliceTokenLayer(layer, first, last, child.fileId));
        children.push({ file_id: child.fileId, pages: segment.pages, confidence: segment.confidence });
      }
      const field: SplitFieldResult = {
        name: 'components.children',
        value: children.map((c) => ({ file_id: c.file_id })),
        boundingBox: null,
        children,
        decisions: plan.decisions,
      };
      return {
        fields: [field],
        usage: { pages: layer.pages.length, children: children.length, blank_pages: plan.blankPages.length },
      };
    },
  };
}
