/**
 * Born-digital pages made into the pictures a phone or a cheap scanner delivers of them: rendered at a
 * modest resolution, softened (the lens and the camera's own scaling), the print faded and the paper
 * grey (thermal paper, poor light), lit unevenly, grainy, a little turned. The probe documents read
 * this way (`npm run probe-corpus -- DIR --photographed`) measure the OCR path on layouts nobody tuned
 * for, beside the same documents' text layer: the difference is what reading pictures costs.
 */
import { PDFDocument } from 'pdf-lib';
import { draw, type Draw } from '../core/random.js';
import type { GreyImage, ImageBackend } from '../ports/image-backend.js';
import type { PdfReader } from '../ports/pdf-reader.js';
import { encodeGreyPng } from '../documents/png.js';
import { renderedPages } from './rendered-pages.js';

/** How hard one document's pictures are: drawn once a document, so its pages look alike. */
export interface PhotoConditions {
  /** Resolution the page is rendered at, before softening. */
  dpi: number;
  /** The picture is scaled down by this and back up: the lower, the softer. */
  sharpness: number;
  /** The paper's grey (255 white) and how much of the ink's darkness is left (1 all). */
  paper: number;
  contrast: number;
  /** Light falling off across the page: the far edge this much darker, in grey levels. */
  shade: number;
  /** Grain: each pixel moved by up to this many grey levels. */
  grain: number;
  /** Degrees turned (clockwise positive). */
  skew: number;
}

/** Conditions of a document drawn from `d`: between a fair flat-bed scan and a poor phone photo. */
export function drawConditions(d: Draw): PhotoConditions {
  const between = (lo: number, hi: number): number => lo + (hi - lo) * d.next();
  return {
    dpi: Math.round(between(150, 220)),
    sharpness: between(0.55, 0.9),
    paper: Math.round(between(205, 245)),
    contrast: between(0.5, 0.95),
    shade: Math.round(between(0, 40)),
    grain: Math.round(between(3, 16)),
    skew: between(-2, 2),
  };
}

/** The picture of a rendered page under `conditions`; `next` draws the grain. Does not change `image`. */
export async function photograph(
  image: GreyImage,
  conditions: PhotoConditions,
  next: () => number,
  images: ImageBackend,
): Promise<GreyImage> {
  const { width, height } = image;
  const small = await images.resize(
    image,
    Math.max(1, Math.round(width * conditions.sharpness)),
    Math.max(1, Math.round(height * conditions.sharpness)),
  );
  const soft = await images.resize(small, width, height);
  const data = new Uint8Array(soft.data.length);
  const { paper, contrast, shade, grain } = conditions;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const ink = 255 - soft.data[i]!;
      const light = paper - (shade * (x / width + y / height)) / 2;
      const value = light - ink * contrast * (light / 255) + (next() * 2 - 1) * grain;
      data[i] = Math.max(0, Math.min(255, Math.round(value)));
    }
  }
  const background = Math.round(paper - shade / 2);
  return images.rotate({ width, height, data }, conditions.skew, background);
}

/**
 * A born-digital PDF photographed page by page (one set of conditions for the document, drawn from
 * `seed`): a PNG for a one-page document (as a phone's picture arrives), else a PDF of pictures (as a
 * scanning app's file). Same seed, same bytes.
 */
export async function photographDocument(
  pdf: Uint8Array,
  seed: number,
  deps: { reader: PdfReader; images: ImageBackend },
): Promise<{ bytes: Uint8Array; kind: 'png' | 'pdf'; conditions: PhotoConditions }> {
  const d = draw(seed);
  const conditions = drawConditions(d);
  const pictures: Array<{ png: Uint8Array; width: number; height: number }> = [];
  for (const { image, width, height } of await renderedPages(deps.reader, pdf, conditions.dpi)) {
    const picture = await photograph(image, conditions, d.next, deps.images);
    pictures.push({ png: encodeGreyPng(picture), width, height });
  }
  if (pictures.length === 1) return { bytes: pictures[0]!.png, kind: 'png', conditions };
  const out = await PDFDocument.create({ updateMetadata: false });
  for (const p of pictures) {
    const png = await out.embedPng(p.png);
    out.addPage([p.width, p.height]).drawImage(png, { x: 0, y: 0, width: p.width, height: p.height });
  }
  return { bytes: await out.save(), kind: 'pdf', conditions };
}
