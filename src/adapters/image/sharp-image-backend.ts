import type { Sharp as SharpPipeline, SharpConstructor } from 'sharp';

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

const LUMA: [number, number, number] = [0.299, 0.587, 0.114];

/**
 * ImageBackend on sharp (libvips): fast native decoding, rotation and resampling. sharp is an optional
 * dependency, so the factory resolves to undefined when the module or its native binary cannot load
 * and the caller falls back to the pure-JavaScript backend.
 */
export async function createSharpImageBackend(): Promise<ImageBackend | undefined> {
  let sharp: SharpConstructor;
  try {
    sharp = (await import('sharp')).default;
  } catch {
    return undefined;
  }

  const fromGrey = (image: GreyImage): SharpPipeline =>
    sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } });

  return {
    name: 'sharp',

    async decode(bytes, options) {
      assertImageWithinLimit(bytes, options.maxPixels);
      try {
        const pipeline = sharp(bytes, {
          limitInputPixels: toPixelLimit(options.maxPixels),
          // Truncated or damaged pixel data is refused rather than decoded into a half-grey page;
          // harmless warnings (common in scanner and phone JPEGs) are tolerated.
          failOn: 'truncated',
        })
          .rotate()
          .flatten({ background: { r: 255, g: 255, b: 255 } });
        if (options.channel === 'lightest') return await lightestChannel(pipeline.toColourspace('srgb'));
        const grey = pipeline
          // Gamma-space luma with the BT.601 weights, rounded, as the jimp backend computes it
          // (libvips' own b-w conversion weighs linear light and makes colours much lighter). sharp
          // works in sRGB, so grey inputs arrive here as three equal bands too.
          .recomb([LUMA, LUMA, LUMA])
          .linear(1, 0.5)
          .extractChannel(0);
        return await toGreyImage(grey);
      } catch (error) {
        throw toDecodeError(error, bytes, options.maxPixels);
      }
    },

    async rotate(image, degrees, background = 255) {
      assertGreyImage(image);
      assertAngle(degrees);
      const value = toGreyValue(background);
      const turn = normaliseDegrees(degrees);
      if (turn === 0) return copyGreyImage(image);
      try {
        return await toGreyImage(
          fromGrey(image)
            .rotate(turn, { background: { r: value, g: value, b: value } })
            .toColourspace('b-w'),
        );
      } catch (error) {
        throw new DocexError('INTERNAL', 'The image could not be rotated.', { cause: error });
      }
    },

    async resize(image, width, height) {
      assertGreyImage(image);
      assertDimension(width, 'The target width');
      assertDimension(height, 'The target height');
      try {
        return await toGreyImage(
          fromGrey(image).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).toColourspace('b-w'),
        );
      } catch (error) {
        throw new DocexError('INTERNAL', 'The image could not be resized.', { cause: error });
      }
    },
  };
}

/** Runs a pipeline to 8-bit sRGB pixels and keeps the lightest of each pixel's three channels. */
async function lightestChannel(pipeline: SharpPipeline): Promise<GreyImage> {
  const { data, info } = await pipeline.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  const grey = new Uint8Array(info.width * info.height);
  const step = info.channels;
  for (let i = 0, j = 0; i < grey.length; i++, j += step) {
    grey[i] = step < 3 ? data[j]! : Math.max(data[j]!, data[j + 1]!, data[j + 2]!);
  }
  return { width: info.width, height: info.height, data: grey };
}

/** Runs a pipeline to 8-bit, one-channel raw pixels. */
async function toGreyImage(pipeline: SharpPipeline): Promise<GreyImage> {
  const { data, info } = await pipeline.raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  if (info.channels === 1) {
    return {
      width: info.width,
      height: info.height,
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    };
  }
  // Defensive: b-w output should always be one band; keep the first if libvips ever adds another.
  const grey = new Uint8Array(info.width * info.height);
  for (let i = 0, j = 0; i < grey.length; i++, j += info.channels) grey[i] = data[j] ?? 0;
  return { width: info.width, height: info.height, data: grey };
}

function toDecodeError(error: unknown, bytes: Uint8Array, maxPixels: number): DocexError {
  if (error instanceof DocexError) return error;
  const text = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(text)) {
    return new DocexError('IMAGE_TOO_LARGE', `The image has more than the limit of ${maxPixels} pixels.`, {
      cause: error,
    });
  }
  const kind = bytes[0] === 0x89 ? 'PNG' : 'JPEG';
  return new DocexError(
    'IMAGE_CORRUPT',
    `The ${kind} image could not be decoded: the file is damaged or truncated.`,
    {
      cause: error,
    },
  );
}

function toPixelLimit(maxPixels: number): number | false {
  if (!Number.isFinite(maxPixels)) return false;
  return Math.max(1, Math.min(Math.floor(maxPixels), Number.MAX_SAFE_INTEGER));
}
