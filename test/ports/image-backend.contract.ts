import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';

import { DocexError } from '../../src/core/errors.js';
import type { GreyImage, ImageBackend } from '../../src/ports/image-backend.js';
import { mulberry32 as seededRandom } from '../helpers/random.js';

/**
 * The ImageBackend contract (src/ports/image-backend.ts) as tests. Every adapter's test file calls
 * describeImageBackendContract; all images are drawn here with @napi-rs/canvas, no fixture files.
 */

/** An axis-aligned rectangle in continuous pixel coordinates: [x0, x1) x [y0, y1). */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export const SAMPLE_WIDTH = 200;
export const SAMPLE_HEIGHT = 100;
/** The black rectangle of the sample image: in the top-left quadrant, not symmetric in any way. */
export const SAMPLE_RECT: Rect = { x0: 20, y0: 10, x1: 80, y1: 40 };

const MAX_PIXELS = 50_000_000;

/** A white 200 x 100 image with SAMPLE_RECT filled black. */
export async function samplePng(): Promise<Uint8Array> {
  return drawSample().encode('png');
}

export async function sampleJpeg(quality = 90): Promise<Uint8Array> {
  return drawSample().encode('jpeg', quality);
}

function drawSample() {
  const canvas = createCanvas(SAMPLE_WIDTH, SAMPLE_HEIGHT);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, SAMPLE_WIDTH, SAMPLE_HEIGHT);
  context.fillStyle = '#000000';
  const { x0, y0, x1, y1 } = SAMPLE_RECT;
  context.fillRect(x0, y0, x1 - x0, y1 - y0);
  return canvas;
}

/** A larger JPEG with text and noise, so its entropy-coded data is long enough to cut in the middle. */
async function busyJpeg(): Promise<Uint8Array> {
  const canvas = createCanvas(640, 480);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 640, 480);
  context.fillStyle = '#000000';
  context.font = '28px sans-serif';
  for (let line = 0; line < 14; line++)
    context.fillText(`Invoice 2024-${line} total 1,234.56 EUR`, 12, 32 * line + 30);
  const random = seededRandom(7);
  for (let i = 0; i < 3000; i++) {
    const v = Math.floor(random() * 256);
    context.fillStyle = `rgb(${v},${v},${v})`;
    context.fillRect(Math.floor(random() * 640), Math.floor(random() * 480), 2, 2);
  }
  return canvas.encode('jpeg', 92);
}

/**
 * Inserts an EXIF APP1 segment holding only the Orientation tag (0x0112) right after the JPEG SOI
 * marker, the way cameras write it. `littleEndian` picks the TIFF byte order ("II" or "MM").
 */
export function withExifOrientation(jpeg: Uint8Array, orientation: number, littleEndian = false): Uint8Array {
  const tiff = new Uint8Array(26);
  const view = new DataView(tiff.buffer);
  tiff.set(littleEndian ? [0x49, 0x49] : [0x4d, 0x4d], 0);
  view.setUint16(2, 42, littleEndian); // TIFF magic
  view.setUint32(4, 8, littleEndian); // offset of IFD0
  view.setUint16(8, 1, littleEndian); // one entry
  view.setUint16(10, 0x0112, littleEndian); // Orientation
  view.setUint16(12, 3, littleEndian); // SHORT
  view.setUint32(14, 1, littleEndian); // count
  view.setUint16(18, orientation, littleEndian); // value, left-justified in the 4-byte field
  view.setUint32(22, 0, littleEndian); // no next IFD
  const header = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"
  const segmentLength = 2 + header.length + tiff.length;
  const app1 = new Uint8Array(4 + header.length + tiff.length);
  app1.set([0xff, 0xe1, segmentLength >> 8, segmentLength & 0xff], 0);
  app1.set(header, 4);
  app1.set(tiff, 4 + header.length);
  const out = new Uint8Array(jpeg.length + app1.length);
  out.set(jpeg.subarray(0, 2), 0);
  out.set(app1, 2);
  out.set(jpeg.subarray(2), 2 + app1.length);
  return out;
}

/** Where a point of the stored image appears once a viewer applies the EXIF orientation. */
function orientPoint(orientation: number, x: number, y: number, w: number, h: number): [number, number] {
  switch (orientation) {
    case 2:
      return [w - x, y]; // mirrored left-right
    case 3:
      return [w - x, h - y]; // turned 180
    case 4:
      return [x, h - y]; // mirrored top-bottom
    case 5:
      return [y, x]; // transposed
    case 6:
      return [h - y, x]; // turned 90 clockwise
    case 7:
      return [h - y, w - x]; // transversed
    case 8:
      return [y, w - x]; // turned 90 counter-clockwise
    default:
      return [x, y];
  }
}

function orientRect(orientation: number, rect: Rect, w: number, h: number): Rect {
  const [ax, ay] = orientPoint(orientation, rect.x0, rect.y0, w, h);
  const [bx, by] = orientPoint(orientation, rect.x1, rect.y1, w, h);
  return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}

/**
 * Every pixel well inside `rect` must be dark (< 64) and every pixel well outside light (> 192);
 * `margin` pixels either side of the edge are left out (anti-aliasing, JPEG ringing, filters).
 */
export function expectRect(image: GreyImage, rect: Rect, margin = 2): void {
  const wrong: string[] = [];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const cx = x + 0.5;
      const cy = y + 0.5;
      const value = image.data[y * image.width + x] ?? -1;
      const inside =
        cx > rect.x0 + margin && cx < rect.x1 - margin && cy > rect.y0 + margin && cy < rect.y1 - margin;
      const outside =
        cx < rect.x0 - margin || cx > rect.x1 + margin || cy < rect.y0 - margin || cy > rect.y1 + margin;
      if ((inside && value >= 64) || (outside && value <= 192)) wrong.push(`(${x},${y})=${value}`);
    }
  }
  expect(wrong.slice(0, 10), `${wrong.length} pixels on the wrong side of ${JSON.stringify(rect)}`).toEqual(
    [],
  );
}

/** Centre of mass of the dark (< 128) pixels. */
function darkCentroid(image: GreyImage): [number, number] {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if ((image.data[y * image.width + x] ?? 255) < 128) {
        sx += x + 0.5;
        sy += y + 0.5;
        n++;
      }
    }
  }
  return [sx / n, sy / n];
}

export function meanAbsoluteDifference(a: GreyImage, b: GreyImage): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
  return sum / a.data.length;
}

function pixel(image: GreyImage, x: number, y: number): number {
  return image.data[y * image.width + x] ?? -1;
}

function cloneImage(image: GreyImage): GreyImage {
  return { width: image.width, height: image.height, data: image.data.slice() };
}

/** Awaits a promise that must reject, and returns what it rejected with. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the promise to reject, but it resolved.');
}

async function expectDocexError(promise: Promise<unknown>, code: DocexError['code']): Promise<DocexError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(DocexError);
  const docex = error as DocexError;
  expect(docex.code).toBe(code);
  // A message for a person: no library internals, no stack.
  expect(docex.message).not.toMatch(/vips|libpng|libjpeg|pngjs|jpeg-js|\n\s+at /i);
  return docex;
}

async function toGrey(backend: ImageBackend, bytes: Uint8Array): Promise<GreyImage> {
  return backend.decode(bytes, { maxPixels: MAX_PIXELS });
}

export function describeImageBackendContract(name: string, make: () => Promise<ImageBackend>): void {
  describe(`ImageBackend contract: ${name}`, () => {
    let backendPromise: Promise<ImageBackend> | undefined;
    const backend = (): Promise<ImageBackend> => (backendPromise ??= make());

    describe('decode', () => {
      it('decodes a PNG to one grey byte per pixel at its size', async () => {
        const image = await toGrey(await backend(), await samplePng());
        expect(image.width).toBe(SAMPLE_WIDTH);
        expect(image.height).toBe(SAMPLE_HEIGHT);
        expect(image.data).toBeInstanceOf(Uint8Array);
        expect(image.data.length).toBe(SAMPLE_WIDTH * SAMPLE_HEIGHT);
        expectRect(image, SAMPLE_RECT, 1);
      });

      it('decodes a JPEG', async () => {
        const image = await toGrey(await backend(), await sampleJpeg());
        expect([image.width, image.height]).toEqual([SAMPLE_WIDTH, SAMPLE_HEIGHT]);
        expect(image.data.length).toBe(SAMPLE_WIDTH * SAMPLE_HEIGHT);
        expectRect(image, SAMPLE_RECT, 3);
      });

      it('converts colour to grey with the luma weights 0.299, 0.587, 0.114', async () => {
        const colours: [number, number, number][] = [
          [255, 0, 0],
          [0, 255, 0],
          [0, 0, 255],
          [200, 100, 50],
          [30, 60, 90],
        ];
        const canvas = createCanvas(colours.length * 10, 10);
        const context = canvas.getContext('2d');
        colours.forEach(([r, g, b], i) => {
          context.fillStyle = `rgb(${r},${g},${b})`;
          context.fillRect(i * 10, 0, 10, 10);
        });
        const image = await toGrey(await backend(), await canvas.encode('png'));
        colours.forEach(([r, g, b], i) => {
          const expected = 0.299 * r + 0.587 * g + 0.114 * b;
          expect(Math.abs(pixel(image, i * 10 + 5, 5) - expected), `colour ${i}`).toBeLessThanOrEqual(1);
        });
      });

      it("with channel 'lightest' keeps each pixel's lightest channel: coloured ink turns light, black stays", async () => {
        const colours: [number, number, number][] = [
          [220, 30, 40], // a red stamp
          [20, 40, 200], // a blue pen
          [0, 0, 0], // black print
          [200, 100, 50],
          [255, 255, 255],
        ];
        const canvas = createCanvas(colours.length * 10 + 10, 10);
        const context = canvas.getContext('2d');
        colours.forEach(([r, g, b], i) => {
          context.fillStyle = `rgb(${r},${g},${b})`;
          context.fillRect(i * 10, 0, 10, 10);
        });
        const png = await canvas.encode('png'); // the last 10 columns stay transparent
        const image = await (await backend()).decode(png, { maxPixels: MAX_PIXELS, channel: 'lightest' });
        expect([image.width, image.height]).toEqual([colours.length * 10 + 10, 10]);
        colours.forEach(([r, g, b], i) => {
          expect(
            Math.abs(pixel(image, i * 10 + 5, 5) - Math.max(r, g, b)),
            `colour ${i}`,
          ).toBeLessThanOrEqual(1);
        });
        expect(pixel(image, colours.length * 10 + 5, 5)).toBe(255);
        // The same bytes by luma: the stamp is dark there.
        const luma = await toGrey(await backend(), png);
        expect(pixel(luma, 5, 5)).toBeLessThan(100);
      });

      it("with channel 'lightest' decodes a grey JPEG as its grey", async () => {
        const jpeg = await sampleJpeg();
        const byLuma = await toGrey(await backend(), jpeg);
        const byLightest = await (
          await backend()
        ).decode(jpeg, { maxPixels: MAX_PIXELS, channel: 'lightest' });
        expect([byLightest.width, byLightest.height]).toEqual([byLuma.width, byLuma.height]);
        let worst = 0;
        for (let i = 0; i < byLuma.data.length; i++)
          worst = Math.max(worst, Math.abs(byLuma.data[i]! - byLightest.data[i]!));
        expect(worst).toBeLessThanOrEqual(8);
      });

      it('shows transparent pixels on white', async () => {
        const canvas = createCanvas(40, 20);
        const context = canvas.getContext('2d');
        context.fillStyle = '#000000';
        context.fillRect(0, 0, 20, 20); // right half stays fully transparent
        context.fillStyle = 'rgba(0,0,0,0.5)';
        context.fillRect(20, 0, 10, 20);
        const image = await toGrey(await backend(), await canvas.encode('png'));
        expect(pixel(image, 5, 10)).toBeLessThan(5);
        expect(Math.abs(pixel(image, 25, 10) - 128)).toBeLessThanOrEqual(3);
        expect(pixel(image, 35, 10)).toBe(255);
      });

      it('applies no turn to a JPEG without EXIF or with orientation 1', async () => {
        const image = await toGrey(await backend(), withExifOrientation(await sampleJpeg(), 1));
        expect([image.width, image.height]).toEqual([SAMPLE_WIDTH, SAMPLE_HEIGHT]);
        expectRect(image, SAMPLE_RECT, 3);
      });

      it.each([2, 3, 4, 5, 6, 7, 8])(
        'applies EXIF orientation %i as a viewer shows it',
        async (orientation) => {
          const jpeg = withExifOrientation(await sampleJpeg(), orientation, orientation % 2 === 1);
          const image = await toGrey(await backend(), jpeg);
          const swapped = orientation >= 5;
          expect([image.width, image.height]).toEqual(
            swapped ? [SAMPLE_HEIGHT, SAMPLE_WIDTH] : [SAMPLE_WIDTH, SAMPLE_HEIGHT],
          );
          expectRect(image, orientRect(orientation, SAMPLE_RECT, SAMPLE_WIDTH, SAMPLE_HEIGHT), 3);
        },
      );

      it('EXIF orientation 6 puts the top-left rectangle at the top right of a portrait image', async () => {
        const image = await toGrey(await backend(), withExifOrientation(await sampleJpeg(), 6));
        expect([image.width, image.height]).toEqual([100, 200]);
        expectRect(image, { x0: 60, y0: 20, x1: 90, y1: 80 }, 3);
      });

      it('refuses a PNG whose header claims 30000 x 30000 with IMAGE_TOO_LARGE, before allocating it', async () => {
        const png = (await samplePng()).slice();
        const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
        view.setUint32(16, 30_000); // IHDR width (the CRC no longer matches: the guard must fire first)
        view.setUint32(20, 30_000); // IHDR height
        const error = await expectDocexError(
          (await backend()).decode(png, { maxPixels: MAX_PIXELS }),
          'IMAGE_TOO_LARGE',
        );
        expect(error.message).toContain('30000');
      });

      it('refuses a JPEG whose frame header claims 30000 x 30000 with IMAGE_TOO_LARGE', async () => {
        const jpeg = (await sampleJpeg()).slice();
        const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
        let patched = false;
        for (let offset = 2; offset + 9 <= jpeg.length;) {
          const marker = jpeg[offset + 1] ?? 0;
          if (marker === 0xc0 || marker === 0xc2) {
            view.setUint16(offset + 5, 30_000);
            view.setUint16(offset + 7, 30_000);
            patched = true;
            break;
          }
          offset += 2 + view.getUint16(offset + 2);
        }
        expect(patched).toBe(true);
        await expectDocexError((await backend()).decode(jpeg, { maxPixels: MAX_PIXELS }), 'IMAGE_TOO_LARGE');
      });

      it('applies maxPixels exactly: the limit itself is allowed, one pixel less is not', async () => {
        const png = await samplePng();
        const pixels = SAMPLE_WIDTH * SAMPLE_HEIGHT;
        const image = await (await backend()).decode(png, { maxPixels: pixels });
        expect(image.data.length).toBe(pixels);
        await expectDocexError((await backend()).decode(png, { maxPixels: pixels - 1 }), 'IMAGE_TOO_LARGE');
      });

      it('refuses random bytes behind a PNG signature and a plausible IHDR with IMAGE_CORRUPT', async () => {
        const random = seededRandom(42);
        const bytes = new Uint8Array(2048).map(() => Math.floor(random() * 256));
        bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52], 0);
        new DataView(bytes.buffer).setUint32(16, 64);
        new DataView(bytes.buffer).setUint32(20, 64);
        await expectDocexError(toGrey(await backend(), bytes), 'IMAGE_CORRUPT');
      });

      it('refuses a PNG signature followed by zeros with IMAGE_CORRUPT', async () => {
        const bytes = new Uint8Array(64);
        bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
        await expectDocexError(toGrey(await backend(), bytes), 'IMAGE_CORRUPT');
      });

      it('refuses a PNG whose pixel data is damaged with IMAGE_CORRUPT', async () => {
        const png = (await samplePng()).slice();
        for (let i = 60; i < png.length - 20; i += 7) png[i] = (png[i] ?? 0) ^ 0x5a;
        await expectDocexError(toGrey(await backend(), png), 'IMAGE_CORRUPT');
      });

      it('refuses a truncated PNG with IMAGE_CORRUPT', async () => {
        const png = await samplePng();
        await expectDocexError(
          toGrey(await backend(), png.slice(0, Math.floor(png.length / 2))),
          'IMAGE_CORRUPT',
        );
      });

      it('refuses the first 100 bytes of a JPEG with IMAGE_CORRUPT', async () => {
        await expectDocexError(toGrey(await backend(), (await sampleJpeg()).slice(0, 100)), 'IMAGE_CORRUPT');
      });

      it('refuses a JPEG cut off in the middle of its pixel data with IMAGE_CORRUPT', async () => {
        const jpeg = await busyJpeg();
        await expectDocexError(
          toGrey(await backend(), jpeg.slice(0, Math.floor(jpeg.length * 0.6))),
          'IMAGE_CORRUPT',
        );
      });

      it('refuses empty input and other formats with IMAGE_CORRUPT', async () => {
        await expectDocexError(toGrey(await backend(), new Uint8Array(0)), 'IMAGE_CORRUPT');
        const gif = new TextEncoder().encode('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;');
        await expectDocexError(toGrey(await backend(), gif), 'IMAGE_CORRUPT');
      });

      it('does not change its input bytes', async () => {
        const jpeg = withExifOrientation(await sampleJpeg(), 6);
        const before = jpeg.slice();
        await toGrey(await backend(), jpeg);
        expect(jpeg).toEqual(before);
      });

      it('decodes bytes that are a view into a larger buffer', async () => {
        const png = await samplePng();
        const padded = new Uint8Array(png.length + 32);
        padded.fill(0xee);
        padded.set(png, 16);
        const image = await toGrey(await backend(), padded.subarray(16, 16 + png.length));
        expect([image.width, image.height]).toEqual([SAMPLE_WIDTH, SAMPLE_HEIGHT]);
        expectRect(image, SAMPLE_RECT, 1);
      });
    });

    describe('rotate', () => {
      const sample = async (): Promise<GreyImage> => toGrey(await backend(), await samplePng());

      it('turns 90 degrees clockwise: size swaps and the rectangle moves to the clockwise position', async () => {
        const image = await sample();
        const turned = await (await backend()).rotate(image, 90);
        expect([turned.width, turned.height]).toEqual([SAMPLE_HEIGHT, SAMPLE_WIDTH]);
        expect(turned.data.length).toBe(SAMPLE_WIDTH * SAMPLE_HEIGHT);
        expectRect(turned, orientRect(6, SAMPLE_RECT, SAMPLE_WIDTH, SAMPLE_HEIGHT), 1);
        // A quarter turn is an exact move of pixels: out(x, y) = in(y, height - 1 - x).
        let moved = 0;
        for (let y = 0; y < turned.height; y++) {
          for (let x = 0; x < turned.width; x++) {
            if (pixel(turned, x, y) === pixel(image, y, SAMPLE_HEIGHT - 1 - x)) moved++;
          }
        }
        expect(moved).toBe(turned.data.length);
      });

      it('turns 180 degrees', async () => {
        const image = await sample();
        const turned = await (await backend()).rotate(image, 180);
        expect([turned.width, turned.height]).toEqual([SAMPLE_WIDTH, SAMPLE_HEIGHT]);
        expectRect(turned, orientRect(3, SAMPLE_RECT, SAMPLE_WIDTH, SAMPLE_HEIGHT), 1);
      });

      it('turns 270 degrees and -90 degrees the same way (a quarter turn counter-clockwise)', async () => {
        const image = await sample();
        const expected = orientRect(8, SAMPLE_RECT, SAMPLE_WIDTH, SAMPLE_HEIGHT);
        for (const degrees of [270, -90]) {
          const turned = await (await backend()).rotate(image, degrees);
          expect([turned.width, turned.height]).toEqual([SAMPLE_HEIGHT, SAMPLE_WIDTH]);
          expectRect(turned, expected, 1);
        }
      });

      it('leaves the image as it is for 0 and 360 degrees', async () => {
        const image = await sample();
        for (const degrees of [0, 360]) {
          const turned = await (await backend()).rotate(image, degrees);
          expect([turned.width, turned.height]).toEqual([SAMPLE_WIDTH, SAMPLE_HEIGHT]);
          expect(meanAbsoluteDifference(turned, image)).toBeLessThan(0.5);
        }
      });

      it.each([3, -3, 30])(
        'turns %f degrees clockwise about the centre on a canvas grown to hold it',
        async (degrees) => {
          const image = await sample();
          const turned = await (await backend()).rotate(image, degrees);
          const radians = (degrees * Math.PI) / 180;
          const cos = Math.abs(Math.cos(radians));
          const sin = Math.abs(Math.sin(radians));
          const exactW = SAMPLE_WIDTH * cos + SAMPLE_HEIGHT * sin;
          const exactH = SAMPLE_WIDTH * sin + SAMPLE_HEIGHT * cos;
          expect(turned.width).toBeGreaterThan(SAMPLE_WIDTH);
          expect(turned.height).toBeGreaterThan(SAMPLE_HEIGHT);
          expect(turned.width).toBeGreaterThanOrEqual(Math.floor(exactW));
          expect(turned.width).toBeLessThanOrEqual(Math.ceil(exactW) + 1);
          expect(turned.height).toBeGreaterThanOrEqual(Math.floor(exactH));
          expect(turned.height).toBeLessThanOrEqual(Math.ceil(exactH) + 1);
          expect(turned.data.length).toBe(turned.width * turned.height);

          // The rectangle's centre turns clockwise (y points down) about the image centre.
          const dx = (SAMPLE_RECT.x0 + SAMPLE_RECT.x1) / 2 - SAMPLE_WIDTH / 2;
          const dy = (SAMPLE_RECT.y0 + SAMPLE_RECT.y1) / 2 - SAMPLE_HEIGHT / 2;
          const c = Math.cos(radians);
          const s = Math.sin(radians);
          const [cx, cy] = darkCentroid(turned);
          expect(Math.abs(cx - (turned.width / 2 + dx * c - dy * s))).toBeLessThan(1.5);
          expect(Math.abs(cy - (turned.height / 2 + dx * s + dy * c))).toBeLessThan(1.5);
        },
      );

      it('fills new corners with white by default', async () => {
        const turned = await (await backend()).rotate(await sample(), 3);
        const { width: w, height: h } = turned;
        expect([
          pixel(turned, 0, 0),
          pixel(turned, w - 1, 0),
          pixel(turned, 0, h - 1),
          pixel(turned, w - 1, h - 1),
        ]).toEqual([255, 255, 255, 255]);
      });

      it('fills new corners with the given background grey', async () => {
        const image = await sample();
        for (const background of [0, 77]) {
          const turned = await (await backend()).rotate(image, 3, background);
          const { width: w, height: h } = turned;
          const corners = [
            pixel(turned, 0, 0),
            pixel(turned, w - 1, 0),
            pixel(turned, 0, h - 1),
            pixel(turned, w - 1, h - 1),
          ];
          for (const corner of corners) expect(Math.abs(corner - background)).toBeLessThanOrEqual(1);
          // The turned page itself stays white in its middle.
          expect(pixel(turned, Math.floor(w * 0.75), Math.floor(h / 2))).toBeGreaterThan(192);
        }
      });

      it('does not change its input', async () => {
        const image = await sample();
        const before = cloneImage(image);
        await (await backend()).rotate(image, 90);
        await (await backend()).rotate(image, 3, 0);
        expect(image).toEqual(before);
      });
    });

    describe('resize', () => {
      const sample = async (): Promise<GreyImage> => toGrey(await backend(), await samplePng());

      it('halves the size and keeps the rectangle at the scaled position', async () => {
        const resized = await (await backend()).resize(await sample(), SAMPLE_WIDTH / 2, SAMPLE_HEIGHT / 2);
        expect([resized.width, resized.height]).toEqual([SAMPLE_WIDTH / 2, SAMPLE_HEIGHT / 2]);
        expect(resized.data.length).toBe((SAMPLE_WIDTH / 2) * (SAMPLE_HEIGHT / 2));
        const { x0, y0, x1, y1 } = SAMPLE_RECT;
        expectRect(resized, { x0: x0 / 2, y0: y0 / 2, x1: x1 / 2, y1: y1 / 2 }, 2);
      });

      it('enlarges to an arbitrary size, changing the aspect ratio', async () => {
        const resized = await (await backend()).resize(await sample(), 300, 250);
        expect([resized.width, resized.height]).toEqual([300, 250]);
        const { x0, y0, x1, y1 } = SAMPLE_RECT;
        expectRect(resized, { x0: x0 * 1.5, y0: y0 * 2.5, x1: x1 * 1.5, y1: y1 * 2.5 }, 3);
      });

      it('smooths: a one-pixel checkerboard shrunk by half becomes mid grey', async () => {
        const size = 64;
        const data = new Uint8Array(size * size);
        for (let y = 0; y < size; y++)
          for (let x = 0; x < size; x++) data[y * size + x] = (x + y) % 2 === 0 ? 0 : 255;
        const resized = await (
          await backend()
        ).resize({ width: size, height: size, data }, size / 2, size / 2);
        // Away from the borders, where filters differ in how they extend the image.
        for (let y = 4; y < size / 2 - 4; y++) {
          for (let x = 4; x < size / 2 - 4; x++) {
            expect(Math.abs(pixel(resized, x, y) - 127.5)).toBeLessThan(20);
          }
        }
      });

      it('does not change its input', async () => {
        const image = await sample();
        const before = cloneImage(image);
        await (await backend()).resize(image, 50, 25);
        await (await backend()).resize(image, 400, 200);
        expect(image).toEqual(before);
      });
    });
  });
}
