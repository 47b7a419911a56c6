import { DocexError, toDocexError } from '../core/errors.js';
import { isPagedImage, openPagedImage } from '../documents/multi-page-images.js';
import { encodeGreyPng } from '../documents/png.js';
import type { Engine } from '../engine-types.js';
import type { EngineContext } from './context.js';

/**
 * A page of a file as an image for the review page: a PDF page rendered to PNG, a TIFF page (a GIF
 * frame) as PNG, a PNG or JPEG as it is. Rendered images are kept with the file as artifacts.
 */
export function pageImageApi(ctx: EngineContext, readFile: Engine['readFile']): Pick<Engine, 'pageImage'> {
  const { files, adapters, settings } = ctx;
  return {
    async pageImage(fileId, pageNum, opts = {}) {
      const accountId = ctx.accountOf(opts);
      const record = await ctx.requireFile(accountId, fileId);
      if (!Number.isInteger(pageNum) || pageNum < 1 || pageNum > Math.max(1, record.pageCount)) {
        throw new DocexError('NOT_FOUND', `The file has no page ${String(pageNum).slice(0, 16)}.`);
      }
      if (isPagedImage(record.mediaType)) {
        // A TIFF's page (a GIF's frame) as PNG, as browsers and clients show PNG; kept with the file.
        const artifact = `page-${pageNum}.png`;
        const cached = await files.getArtifact(accountId, record.fileId, artifact);
        if (cached) return { contentType: 'image/png', bytes: cached };
        const paged = openPagedImage(await readFile(record.fileId, { accountId }), record.mediaType);
        const bytes = encodeGreyPng(paged.page(pageNum, settings.ingest.maxPixels));
        await files.putArtifact(accountId, record.fileId, artifact, bytes);
        return { contentType: 'image/png', bytes };
      }
      if (record.mediaType !== 'application/pdf') {
        return { contentType: record.mediaType, bytes: await readFile(record.fileId, { accountId }) };
      }
      const dpi = Math.round(Math.min(200, Math.max(50, opts.dpi ?? 110)));
      const artifact = `page-${pageNum}-${dpi}.png`;
      const cached = await files.getArtifact(accountId, record.fileId, artifact);
      if (cached) return { contentType: 'image/png', bytes: cached };
      const doc = await (
        await adapters.pdfReader()
      ).open(await readFile(record.fileId, { accountId }), { transfer: true });
      let bytes: Uint8Array;
      try {
        const page = await doc.page(pageNum);
        const { image } = await page.render({ dpi, maxPixels: 12_000_000 });
        page.release();
        bytes = encodeGreyPng(image);
      } catch (error) {
        throw toDocexError(error, 'PDF_CORRUPT', 'The page could not be rendered.');
      } finally {
        await doc.close();
      }
      await files.putArtifact(accountId, record.fileId, artifact, bytes);
      return { contentType: 'image/png', bytes };
    },
  };
}
