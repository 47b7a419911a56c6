/**
 * Section `ocr` (2): OCR of 300 dpi page images by docex's two OCR adapters (tesseract.js's pool of
 * two workers, and the host's tesseract program, a process per page) against native tesseract, two
 * processes at a time: with the system's English model, and with docex's own (for information).
 */
import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createNativeTesseractOcr,
  nativeTesseractVersion,
} from '../../src/adapters/ocr/native-tesseract-ocr.js';
import { createTesseractOcr } from '../../src/adapters/ocr/tesseract-ocr.js';
import { createPdfjsReader } from '../../src/adapters/pdf/pdfjs-reader.js';
import { encodePgm } from '../../src/documents/raster.js';
import type { GreyImage } from '../../src/ports/image-backend.js';
import type { OcrEngine } from '../../src/ports/ocr-engine.js';
import { INVOICE_PAGES, SCAN_DPI as DPI, pageWords, renderPages } from '../lib/invoice.js';
import { measured, timed, type Baseline, type Measured } from '../lib/measure.js';
import { INSTALL_HINT, toolVersion } from '../lib/native.js';
import {
  docexModelFile,
  nativeTessdata,
  nativeTesseract,
  systemModel,
  unpackDocexModel,
  type NativePage,
  type TesseractModel,
} from '../lib/native-tesseract.js';
import { fmt, na, wordRecall } from '../lib/report.js';
import type { SectionContext } from '../lib/section.js';
import { baselineCell, ratioCell, targetRow, type SummaryRow } from '../lib/summary-row.js';

const OCR_PAGES = 6;
const OCR_WORKERS = 2;
const NATIVE_SLOTS = 2;
export const TARGET_OCR_RATIO = 0.8;

export type OcrSection = Awaited<ReturnType<typeof measureOcr>>;

/** The section: all pages of invoices 1 and 2, rendered as a scanner would see them. */
export async function benchOcr({ tmp, log, invoices }: SectionContext): Promise<OcrSection> {
  const [warmDoc, ...docs] = await invoices();
  const reader = createPdfjsReader();
  const ocrPages = docs.slice(0, OCR_PAGES / INVOICE_PAGES);
  const images: GreyImage[] = [];
  for (const doc of ocrPages) images.push(...(await renderPages(reader, doc.bytes, [1, 2, 3])));
  const [warmImage] = await renderPages(reader, warmDoc!.bytes, [1]);
  const expected = ocrPages.flatMap((d) => d.pages.map(pageWords));
  return measureOcr(tmp, log, warmImage!, images, expected);
}

async function measureOcr(
  tmp: string,
  log: (text: string) => void,
  warmImage: GreyImage,
  images: GreyImage[],
  expected: string[][],
) {
  log(
    `\n== 2. OCR: ${images.length} page images at ${DPI} dpi, ${OCR_WORKERS} workers vs ${NATIVE_SLOTS} processes ==`,
  );
  const dir = path.join(tmp, 'ocr');
  await mkdir(dir);
  log(`   image size ${images[0]!.width} x ${images[0]!.height} px (greyscale)`);

  // docex: its two OCR adapters, tesseract.js's pool (both workers started by two concurrent warm-up
  // calls) and the host's tesseract program, one process per page (when it is installed).
  type OcrRun = Measured & { words: number; recall: number; warmUpSeconds: number };
  const runAdapter = async (ocr: OcrEngine): Promise<OcrRun> => {
    try {
      const warm = await timed(() => Promise.all([ocr.recognize(warmImage), ocr.recognize(warmImage)]));
      const { value, seconds } = await timed(() => Promise.all(images.map((image) => ocr.recognize(image))));
      const found = value.map((words) => words.map((w) => w.text));
      return {
        ...measured(seconds, images.length),
        words: found.flat().length,
        recall: wordRecall(expected.flat(), found.flat()),
        warmUpSeconds: warm.seconds,
      };
    } finally {
      await ocr.close();
    }
  };
  const ours = await runAdapter(createTesseractOcr({ workers: OCR_WORKERS }));
  log(
    `   docex wasm  : ${ours.pages} pages in ${fmt(ours.seconds, 's')} = ${fmt(ours.pagesPerSecond, 'pages/s')}` +
      ` (${ours.words} words, ${fmt(ours.recall * 100, '%')} of printed words; warm-up ${fmt(ours.warmUpSeconds, 's')})`,
  );
  log(`     model     : tesseract.js ${tesseractJsVersion()} with @tesseract.js-data/eng 4.0.0_best_int`);
  const nativeVersion = await nativeTesseractVersion();
  let oursNative: OcrRun | undefined;
  if (nativeVersion) {
    oursNative = await runAdapter(createNativeTesseractOcr({ workers: OCR_WORKERS }));
    log(
      `   docex native: ${oursNative.pages} pages in ${fmt(oursNative.seconds, 's')} = ${fmt(oursNative.pagesPerSecond, 'pages/s')}` +
        ` (${oursNative.words} words, ${fmt(oursNative.recall * 100, '%')} of printed words; the tesseract program ${nativeVersion},` +
        ` the same model, a process per page, bitmaps on stdin)`,
    );
  } else {
    log(`   docex native: ${na('no tesseract program 5.x: ' + INSTALL_HINT)}`);
  }

  // Baselines: native tesseract, two processes at a time, one thread each.
  const pgms = await Promise.all(
    [warmImage, ...images].map(async (image, i) => {
      const file = path.join(dir, `page-${i}.pgm`);
      await writeFile(file, encodePgm(image));
      return file;
    }),
  );
  const tess = nativeTessdata();
  let nativeModel: TesseractModel | undefined;
  let docexModel: TesseractModel | undefined;
  let baseline: Baseline;
  let sameModel: Baseline;
  if ('reason' in tess) {
    baseline = { ok: false, reason: tess.reason };
    sameModel = { ok: false, reason: tess.reason };
    printNative(log, 'tesseract ', baseline);
  } else {
    nativeModel = await systemModel(tess.dir);
    log(`   native    : ${toolVersion('tesseract', ['--version'])}, model ${nativeModel.description}`);
    baseline = await nativeOcr(pgms, dir, 'native', undefined, expected);
    printNative(log, 'tesseract ', baseline);

    // For information: the same native binary with docex's own (larger) model.
    const docexTessdata = path.join(tmp, 'tessdata-docex');
    docexModel = await unpackDocexModel(docexTessdata);
    sameModel = await nativeOcr(pgms, dir, 'native-docex-model', docexTessdata, expected);
    printNative(log, 'tesseract with docex model', sameModel, '(for information)');
  }
  const ratio = baseline.ok ? ours.pagesPerSecond / baseline.pagesPerSecond : undefined;
  const sameModelRatio = sameModel.ok ? ours.pagesPerSecond / sameModel.pagesPerSecond : undefined;
  if (ratio !== undefined)
    log(`   ratio docex wasm/native tesseract = ${fmt(ratio)} (target >= ${TARGET_OCR_RATIO})`);
  const nativeRatio =
    oursNative && sameModel.ok ? oursNative.pagesPerSecond / sameModel.pagesPerSecond : undefined;
  if (oursNative && baseline.ok && nativeRatio !== undefined)
    log(
      `   ratio docex native adapter/native tesseract = ${fmt(oursNative.pagesPerSecond / baseline.pagesPerSecond)}` +
        ` (Debian's model), ${fmt(nativeRatio)} (the same model; target >= 1.0)`,
    );
  if (sameModelRatio !== undefined) {
    log(`   ratio docex/native tesseract with docex's model = ${fmt(sameModelRatio)} (for information)`);
  }
  return {
    pages: images.length,
    dpi: DPI,
    workers: OCR_WORKERS,
    docex: ours,
    docexNative: oursNative ?? { ok: false, reason: 'no tesseract program 5.x' },
    nativeRatio,
    docexModel: docexModel ?? { description: 'eng 4.0.0_best_int', path: docexModelFile() },
    baseline,
    nativeModel,
    ratio,
    sameModelBaseline: sameModel,
    sameModelRatio,
  };
}

function tesseractJsVersion(): string {
  try {
    return (createRequire(import.meta.url)('tesseract.js/package.json') as { version: string }).version;
  } catch {
    return '(version unknown)';
  }
}

/**
 * Native tesseract over the page images (the first a warm-up), NATIVE_SLOTS processes at a time, with
 * the system's model or the one in `tessdataDir`.
 */
async function nativeOcr(
  pgms: string[],
  dir: string,
  label: string,
  tessdataDir: string | undefined,
  expected: string[][],
): Promise<Baseline> {
  const image = (file: string): NativePage => ({ kind: 'image', file });
  const options = { slots: NATIVE_SLOTS, ...(tessdataDir === undefined ? {} : { tessdataDir }) };
  try {
    const [warm, ...pages] = pgms;
    await nativeTesseract([image(warm!)], [path.join(dir, `${label}-warm`)], options);
    const outs = pages.map((_, i) => path.join(dir, `${label}-${i}`));
    const { seconds, words } = await nativeTesseract(pages.map(image), outs, options);
    return {
      ok: true,
      ...measured(seconds, pages.length),
      words: words.length,
      recall: wordRecall(expected.flat(), words),
    };
  } catch (error) {
    return { ok: false, reason: `tesseract failed: ${(error as Error).message}` };
  }
}

function printNative(log: (text: string) => void, name: string, result: Baseline, note = ''): void {
  const label = name.trimEnd().padEnd(10);
  if (!result.ok) {
    log(`   ${label}: ${na(result.reason)}`);
    return;
  }
  log(
    `   ${label}: ${result.pages} pages in ${fmt(result.seconds, 's')} = ${fmt(result.pagesPerSecond, 'pages/s')}` +
      ` (${String(result.words)} words, ${fmt(Number(result.recall) * 100, '%')} of printed words) ${note}`.trimEnd(),
  );
}

export function ocrSummaryRows(ocr: OcrSection): SummaryRow[] {
  const rows: SummaryRow[] = [
    targetRow(
      `OCR ${OCR_PAGES} pages, pages/s (vs native tesseract, Debian eng)`,
      ocr.docex.pagesPerSecond,
      ocr.baseline,
      ocr.ratio,
      TARGET_OCR_RATIO,
    ),
    {
      metric: "  info: same, native tesseract with docex's model",
      docex: fmt(ocr.docex.pagesPerSecond),
      baseline: baselineCell(ocr.sameModelBaseline),
      ratio: ratioCell(ocr.sameModelRatio),
      target: '-',
      met: '-',
    },
  ];
  if ('pagesPerSecond' in ocr.docexNative) {
    rows.push({
      metric: 'OCR, native adapter (vs native tesseract, same model)',
      docex: fmt(ocr.docexNative.pagesPerSecond),
      baseline: baselineCell(ocr.sameModelBaseline),
      ratio: ratioCell(ocr.nativeRatio),
      target: '>= 1.0',
      met: ocr.nativeRatio === undefined ? '-' : ocr.nativeRatio >= 1 ? 'yes' : 'NO',
    });
  }
  return rows;
}
