import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';
import { rotateRightAngle } from '../../documents/raster.js';
import type { GreyImage } from '../../ports/image-backend.js';
import type { Box } from '../../core/types.js';

type Matrix = [number, number, number, number, number, number];
type Ops = typeof PdfjsModule.OPS;

/** A page that is one scanned picture: the picture in grey, turned as displayed, and where it lies. */
export interface ScanImage {
  image: GreyImage;
  /** The picture's extent on the displayed page, in fractions. */
  box: Box;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** The matrix that applies `first`, then `then` (PDF convention: x' = a x + c y + e). */
function multiply(first: Matrix, then: Matrix): Matrix {
  const [a1, b1, c1, d1, e1, f1] = first;
  const [a2, b2, c2, d2, e2, f2] = then;
  return [
    a1 * a2 + b1 * c2,
    a1 * b2 + b1 * d2,
    c1 * a2 + d1 * c2,
    c1 * b2 + d1 * d2,
    e1 * a2 + f1 * c2 + e2,
    e1 * b2 + f1 * d2 + f2,
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/**
 * When a page paints exactly one raster image and nothing else that shows (the usual scanned page),
 * returns that image as stored in the PDF, at its own resolution, instead of a rendering: no
 * resampling blur, no canvas, and faster. Undefined for any other page (callers render it).
 */
export async function extractScanImage(
  ops: Ops,
  page: PDFPageProxy,
  viewport: { width: number; height: number; convertToViewportPoint(x: number, y: number): number[] },
  maxPixels: number,
): Promise<ScanImage | undefined> {
  const list = await page.getOperatorList();
  const drawing = new Set<number>([
    ops.fill,
    ops.eoFill,
    ops.fillStroke,
    ops.eoFillStroke,
    ops.stroke,
    ops.showText,
    ops.showSpacedText,
    ops.shadingFill,
    ops.paintImageMaskXObject,
    ops.paintImageMaskXObjectGroup,
    ops.paintSolidColorImageMask,
    ops.paintImageXObjectRepeat,
    ops.paintImageMaskXObjectRepeat,
    ops.paintInlineImageXObjectGroup,
    ops.constructPath,
  ]);
  let ctm: Matrix = IDENTITY;
  const stack: Matrix[] = [];
  let found: { objId: string; ctm: Matrix } | undefined;
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i]!;
    const args = list.argsArray[i] as unknown[] | null;
    if (fn === ops.save || fn === ops.beginGroup) stack.push(ctm);
    else if (fn === ops.restore || fn === ops.endGroup) ctm = stack.pop() ?? IDENTITY;
    else if (fn === ops.transform) ctm = multiply(args as Matrix, ctm);
    else if (fn === ops.paintFormXObjectBegin) {
      stack.push(ctm);
      const matrix = args?.[0];
      if (Array.isArray(matrix) && matrix.length === 6) ctm = multiply(matrix as Matrix, ctm);
    } else if (fn === ops.paintFormXObjectEnd) ctm = stack.pop() ?? IDENTITY;
    else if (fn === ops.paintImageXObject) {
      if (found) return undefined;
      found = { objId: String(args?.[0]), ctm };
    } else if (fn === ops.paintInlineImageXObject || drawing.has(fn)) {
      // Vector drawing or text would be lost; inline images are rare in scans: render instead.
      return undefined;
    }
  }
  if (!found) return undefined;

  // Where the image's top-left, top-right and bottom-left corners land on the displayed page.
  const toPage = (x: number, y: number): [number, number] => {
    const [px, py] = apply(found!.ctm, x, y);
    const [vx, vy] = viewport.convertToViewportPoint(px, py);
    return [vx! / viewport.width, vy! / viewport.height];
  };
  const origin = toPage(0, 1);
  const right = toPage(1, 1);
  const down = toPage(0, 0);
  const across = [right[0] - origin[0], right[1] - origin[1]];
  const downward = [down[0] - origin[0], down[1] - origin[1]];
  const straight = (v: number[]) => Math.abs(v[0]!) < 1e-6 || Math.abs(v[1]!) < 1e-6;
  if (!straight(across) || !straight(downward)) return undefined;
  const xs = [origin[0], right[0], down[0], right[0] + downward[0]!];
  const ys = [origin[1], right[1], down[1], right[1] + downward[1]!];
  const box = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
  // Only a picture that is most of the page counts as a scan.
  if ((box.x1 - box.x0) * (box.y1 - box.y0) < 0.8) return undefined;
  const turn = rightAngleOf(across, downward);
  if (turn === undefined) return undefined;

  const data = await new Promise<unknown>((resolve) => page.objs.get(found!.objId, resolve));
  const grey = toGrey(data, maxPixels);
  // The decoded colour picture is three times the size of its grey copy: let pdfjs drop it now.
  page.cleanup();
  if (!grey) return undefined;
  return { image: rotateRightAngle(grey, turn), box };
}

/** The clockwise turn that shows the image as on the page, or undefined for a mirrored one. */
function rightAngleOf(across: number[], downward: number[]): 0 | 90 | 180 | 270 | undefined {
  const sign = (v: number) => (v > 0 ? 1 : v < 0 ? -1 : 0);
  const a = `${sign(across[0]!)},${sign(across[1]!)}|${sign(downward[0]!)},${sign(downward[1]!)}`;
  const turns: Record<string, 0 | 90 | 180 | 270> = {
    '1,0|0,1': 0,
    '0,1|-1,0': 90,
    '-1,0|0,-1': 180,
    '0,-1|1,0': 270,
  };
  return turns[a];
}

/** Grey pixels from a decoded pdfjs image object, or undefined for a kind this does not read. */
function toGrey(object: unknown, maxPixels: number): GreyImage | undefined {
  const image = object as {
    width?: number;
    height?: number;
    kind?: number;
    data?: Uint8Array | Uint8ClampedArray;
  } | null;
  if (!image?.data || !image.width || !image.height || image.width * image.height > maxPixels)
    return undefined;
  const { width, height, kind, data } = image;
  const out = new Uint8Array(width * height);
  if (kind === 1) {
    // 1 bit a pixel, rows padded to a byte, a set bit is white.
    const rowBytes = (width + 7) >> 3;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = (data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1;
        out[y * width + x] = bit ? 255 : 0;
      }
    }
    return { width, height, data: out };
  }
  const channels = kind === 2 ? 3 : kind === 3 ? 4 : 0;
  if (channels === 0 || data.length < width * height * channels) return undefined;
  for (let i = 0, p = 0; i < out.length; i++, p += channels) {
    out[i] = Math.round(0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!);
  }
  return { width, height, data: out };
}
