import { Jimp } from 'jimp';

import { DocexError } from '../../core/errors.js';
import { assertImageWithinLimit } from '../../documents/image-size.js';
import type { GreyImage, ImageBackend } from '../../ports/image-backend.js';
import {
  assertAngle,
  assertDimension,
  assertGreyImage,
  copyGreyImage,
  normaliseDegrees,
  toGreyValue,
} from './grey-image-checks.js';

/**
 * ImageBackend in pure JavaScript: jimp decodes PNG (pngjs) and JPEG (jpeg-js) and applies the EXIF
 * orientation itself (Jimp.fromBuffer reads the tag with exif-parser and remaps the bitmap for all
 * eight orientations). Rotation and resizing work directly on the grey bytes: jimp's own rotate turns
 * counter-clockwise and fills new pixels with transparent black, and a typed-array loop is faster
 * than its RGBA pipeline.
 */
export function createJimpImageBackend(): ImageBackend {
  return {
    name: 'jimp',

    async decode(bytes, options) {
      const size = assertImageWithinLimit(bytes, options.maxPixels);
      const megapixels = Math.max(1, (size.width * size.height) / 1e6);
      let bitmap: { width: number; height: number; data: Uint8Array };
      try {
        const image = await Jimp.fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
          'image/jpeg': {
            // jpeg-js has its own caps (100 MP, 512 MB); the guard above already bounds the size.
            maxResolutionInMP: megapixels + 1,
            maxMemoryUsageInMB: Math.max(512, Math.ceil(megapixels * 16)),
          },
        });
        bitmap = image.bitmap;
      } catch (error) {
        const kind = bytes[0] === 0x89 ? 'PNG' : 'JPEG';
        throw new DocexError(
          'IMAGE_CORRUPT',
          `The ${kind} image could not be decoded: the file is damaged or truncated.`,
          { cause: error },
        );
      }
      if (bitmap.width * bitmap.height > options.maxPixels) {
        throw new DocexError(
          'IMAGE_TOO_LARGE',
          `The image is ${bitmap.width} x ${bitmap.height} pixels; the limit is ${options.maxPixels} pixels.`,
        );
      }
      return {
        width: bitmap.width,
        height: bitmap.height,
        data: rgbaToGrey(bitmap.data, options.channel === 'lightest' ? lightest : luma),
      };
    },

    async rotate(image, degrees, background = 255) {
      assertGreyImage(image);
      assertAngle(degrees);
      return rotateGrey(image, degrees, toGreyValue(background));
    },

    async resize(image, width, height) {
      assertGreyImage(image);
      assertDimension(width, 'The target width');
      assertDimension(height, 'The target height');
      return resizeGrey(image, width, height);
    },
  };
}

const luma = (r: number, g: number, b: number): number => 0.299 * r + 0.587 * g + 0.114 * b;
const lightest = (r: number, g: number, b: number): number => Math.max(r, g, b);

/** Grey values of RGBA pixels (`grey` of their channels), composited onto white where they are transparent. */
function rgbaToGrey(rgba: Uint8Array, grey: (r: number, g: number, b: number) => number): Uint8Array {
  const out = new Uint8Array(rgba.length >> 2);
  for (let i = 0, j = 0; i < out.length; i++, j += 4) {
    const value = grey(rgba[j] ?? 0, rgba[j + 1] ?? 0, rgba[j + 2] ?? 0);
    const alpha = rgba[j + 3] ?? 255;
    out[i] = Math.round(alpha === 255 ? value : (value * alpha + 255 * (255 - alpha)) / 255);
  }
  return out;
}

/**
 * Clockwise rotation about the centre. Right angles are exact pixel moves; any other angle maps each
 * output pixel back into the source and samples it bilinearly, with `background` outside the source.
 */
function rotateGrey(image: GreyImage, degrees: number, background: number): GreyImage {
  const turn = normaliseDegrees(degrees);
  const { width: w, height: h, data: src } = image;
  const epsilon = 1e-9;
  if (turn < epsilon || 360 - turn < epsilon) return copyGreyImage(image);
  if (Math.abs(turn - 180) < epsilon) {
    const out = new Uint8Array(w * h);
    for (let i = 0, j = out.length - 1; i < out.length; i++, j--) out[i] = src[j] ?? background;
    return { width: w, height: h, data: out };
  }
  if (Math.abs(turn - 90) < epsilon || Math.abs(turn - 270) < epsilon) {
    const clockwise = turn < 180;
    const out = new Uint8Array(w * h);
    // Output is h wide and w tall. Quarter turn clockwise: out(x, y) = src(y, h - 1 - x);
    // three quarters: out(x, y) = src(w - 1 - y, x).
    for (let y = 0; y < w; y++) {
      const row = y * h;
      for (let x = 0; x < h; x++) {
        out[row + x] = (clockwise ? src[(h - 1 - x) * w + y] : src[x * w + (w - 1 - y)]) ?? background;
      }
    }
    return { width: h, height: w, data: out };
  }

  const radians = (turn * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const outW = Math.max(1, Math.ceil(Math.abs(w * cos) + Math.abs(h * sin) - 1e-6));
  const outH = Math.max(1, Math.ceil(Math.abs(w * sin) + Math.abs(h * cos) - 1e-6));
  const out = new Uint8Array(outW * outH);
  const inCx = w / 2 - 0.5;
  const inCy = h / 2 - 0.5;
  const outCx = outW / 2 - 0.5;
  const outCy = outH / 2 - 0.5;
  for (let y = 0; y < outH; y++) {
    // Inverse of a clockwise turn (y pointing down): source = R(-angle) * (output - centre).
    const dy = y - outCy;
    let sx = -outCx * cos + dy * sin + inCx;
    let sy = outCx * sin + dy * cos + inCy;
    const row = y * outW;
    for (let x = 0; x < outW; x++, sx += cos, sy -= sin) {
      if (sx <= -1 || sy <= -1 || sx >= w || sy >= h) {
        out[row + x] = background;
        continue;
      }
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const left = x0 >= 0;
      const right = x0 + 1 < w;
      const top = y0 >= 0;
      const bottom = y0 + 1 < h;
      const i = y0 * w + x0;
      const p00 = left && top ? (src[i] ?? background) : background;
      const p10 = right && top ? (src[i + 1] ?? background) : background;
      const p01 = left && bottom ? (src[i + w] ?? background) : background;
      const p11 = right && bottom ? (src[i + w + 1] ?? background) : background;
      const upper = p00 + (p10 - p00) * fx;
      const lower = p01 + (p11 - p01) * fx;
      out[row + x] = Math.round(upper + (lower - upper) * fy);
    }
  }
  return { width: outW, height: outH, data: out };
}

/** Per output index, `taps` source indices (clamped at the edges) and normalised weights. */
interface ResampleTable {
  taps: number;
  index: Int32Array;
  weight: Float32Array;
}

/**
 * Triangle (tent) filter whose support widens with the reduction factor: bilinear when enlarging,
 * an area-like average when shrinking, so thin strokes survive downscaling without aliasing.
 */
function resampleTable(inSize: number, outSize: number): ResampleTable {
  const scale = inSize / outSize;
  const support = Math.max(1, scale);
  const taps = Math.ceil(support) * 2 + 1;
  const index = new Int32Array(outSize * taps);
  const weight = new Float32Array(outSize * taps);
  for (let o = 0; o < outSize; o++) {
    const centre = (o + 0.5) * scale - 0.5;
    const first = Math.floor(centre - support) + 1;
    let total = 0;
    for (let k = 0; k < taps; k++) {
      const i = first + k;
      const w = Math.max(0, 1 - Math.abs(i - centre) / support);
      index[o * taps + k] = Math.min(inSize - 1, Math.max(0, i));
      weight[o * taps + k] = w;
      total += w;
    }
    for (let k = 0; k < taps; k++) weight[o * taps + k] = (weight[o * taps + k] ?? 0) / total;
  }
  return { taps, index, weight };
}

function resizeGrey(image: GreyImage, width: number, height: number): GreyImage {
  const { width: w, height: h, data: src } = image;
  if (width === w && height === h) return copyGreyImage(image);
  const cols = resampleTable(w, width);
  const rows = resampleTable(h, height);

  // Horizontal pass: h rows of `width` floats.
  const across = new Float32Array(width * h);
  for (let y = 0; y < h; y++) {
    const inRow = y * w;
    const outRow = y * width;
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = 0, t = x * cols.taps; k < cols.taps; k++, t++) {
        sum += (src[inRow + (cols.index[t] ?? 0)] ?? 0) * (cols.weight[t] ?? 0);
      }
      across[outRow + x] = sum;
    }
  }

  // Vertical pass, a whole row at a time so memory is read in order.
  const out = new Uint8Array(width * height);
  const acc = new Float32Array(width);
  for (let y = 0; y < height; y++) {
    acc.fill(0);
    for (let k = 0, t = y * rows.taps; k < rows.taps; k++, t++) {
      const weight = rows.weight[t] ?? 0;
      if (weight === 0) continue;
      const inRow = (rows.index[t] ?? 0) * width;
      for (let x = 0; x < width; x++) acc[x] = (acc[x] ?? 0) + (across[inRow + x] ?? 0) * weight;
    }
    const outRow = y * width;
    for (let x = 0; x < width; x++) out[outRow + x] = Math.round(acc[x] ?? 0);
  }
  return { width, height, data: out };
}
