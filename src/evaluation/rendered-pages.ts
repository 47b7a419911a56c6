import type { GreyImage } from '../ports/image-backend.js';
import type { PdfReader } from '../ports/pdf-reader.js';

/** A PDF's pages rendered at `dpi`, in order, each with its size in points; the document closed after. */
export async function renderedPages(
  reader: PdfReader,
  pdf: Uint8Array,
  dpi: number,
): Promise<Array<{ image: GreyImage; width: number; height: number }>> {
  const source = await reader.open(pdf);
  const pages: Array<{ image: GreyImage; width: number; height: number }> = [];
  try {
    for (let n = 1; n <= source.pageCount; n++) {
      const page = await source.page(n);
      try {
        const { image } = await page.render({ dpi, maxPixels: 40_000_000 });
        pages.push({ image, width: page.width, height: page.height });
      } finally {
        page.release();
      }
    }
  } finally {
    await source.close();
  }
  return pages;
}
