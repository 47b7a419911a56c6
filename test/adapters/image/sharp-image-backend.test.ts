import { describe, expect, it } from 'vitest';

import { createJimpImageBackend } from '../../../src/adapters/image/jimp-image-backend.js';
import { createSharpImageBackend } from '../../../src/adapters/image/sharp-image-backend.js';
import type { ImageBackend } from '../../../src/ports/image-backend.js';
import {
  describeImageBackendContract,
  meanAbsoluteDifference,
  sampleJpeg,
  samplePng,
} from '../../ports/image-backend.contract.js';

/** sharp is installed in this repository, so failing to load it is a test failure, not a skip. */
async function makeSharp(): Promise<ImageBackend> {
  const backend = await createSharpImageBackend();
  if (backend === undefined)
    throw new Error('createSharpImageBackend() returned undefined: sharp did not load.');
  return backend;
}

describeImageBackendContract('sharp', makeSharp);

describe('sharp image backend', () => {
  it('loads and names itself', async () => {
    const backend = await createSharpImageBackend();
    expect(backend).toBeDefined();
    expect(backend?.name).toBe('sharp');
  });

  it('agrees with the jimp backend on the same PNG and JPEG', async () => {
    const sharp = await makeSharp();
    const jimp = createJimpImageBackend();
    for (const bytes of [await samplePng(), await sampleJpeg()]) {
      const [a, b] = await Promise.all([
        sharp.decode(bytes, { maxPixels: 1_000_000 }),
        jimp.decode(bytes, { maxPixels: 1_000_000 }),
      ]);
      expect(meanAbsoluteDifference(a, b)).toBeLessThan(3);
    }
  });

  it('refuses malformed grey images and arguments with INVALID_ARGUMENT', async () => {
    const backend = await makeSharp();
    const image = { width: 4, height: 4, data: new Uint8Array(16) };
    await expect(backend.rotate({ ...image, data: new Uint8Array(15) }, 90)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(backend.rotate(image, Number.NaN)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(backend.rotate(image, 3, 300)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(backend.resize(image, 0, 2)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(backend.resize(image, 2.5, 2)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
