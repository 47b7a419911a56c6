import { describe, expect, it } from 'vitest';

import { createJimpImageBackend } from '../../../src/adapters/image/jimp-image-backend.js';
import { createSharpImageBackend } from '../../../src/adapters/image/sharp-image-backend.js';
import {
  describeImageBackendContract,
  meanAbsoluteDifference,
  sampleJpeg,
  samplePng,
  withExifOrientation,
} from '../../ports/image-backend.contract.js';

describeImageBackendContract('jimp', async () => createJimpImageBackend());

describe('jimp image backend', () => {
  it('names itself', () => {
    expect(createJimpImageBackend().name).toBe('jimp');
  });

  it('agrees with the sharp backend on the same PNG and JPEG', async () => {
    const sharp = await createSharpImageBackend();
    if (sharp === undefined) throw new Error('sharp is installed here but did not load.');
    const jimp = createJimpImageBackend();
    for (const bytes of [await samplePng(), withExifOrientation(await sampleJpeg(), 6)]) {
      const [a, b] = await Promise.all([
        jimp.decode(bytes, { maxPixels: 1_000_000 }),
        sharp.decode(bytes, { maxPixels: 1_000_000 }),
      ]);
      expect(meanAbsoluteDifference(a, b)).toBeLessThan(3);
    }
  });

  it('agrees with the sharp backend on turning by a small angle', async () => {
    const sharp = await createSharpImageBackend();
    if (sharp === undefined) throw new Error('sharp is installed here but did not load.');
    const jimp = createJimpImageBackend();
    const image = await jimp.decode(await samplePng(), { maxPixels: 1_000_000 });
    const [a, b] = await Promise.all([jimp.rotate(image, 3), sharp.rotate(image, 3)]);
    // Canvas sizes may differ by a pixel (rounding of the bounding box): compare the common centre part.
    const width = Math.min(a.width, b.width) - 4;
    const height = Math.min(a.height, b.height) - 4;
    const crop = (img: typeof a) => {
      const ox = Math.floor((img.width - width) / 2);
      const oy = Math.floor((img.height - height) / 2);
      const data = new Uint8Array(width * height);
      for (let y = 0; y < height; y++)
        data.set(img.data.subarray((y + oy) * img.width + ox, (y + oy) * img.width + ox + width), y * width);
      return { width, height, data };
    };
    expect(meanAbsoluteDifference(crop(a), crop(b))).toBeLessThan(6);
  });

  it('refuses malformed grey images and arguments with INVALID_ARGUMENT', async () => {
    const backend = createJimpImageBackend();
    const image = { width: 4, height: 4, data: new Uint8Array(16) };
    await expect(backend.rotate({ ...image, data: new Uint8Array(15) }, 90)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(backend.rotate(image, Number.POSITIVE_INFINITY)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(backend.rotate(image, 3, -1)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(backend.resize(image, 2, 0)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
