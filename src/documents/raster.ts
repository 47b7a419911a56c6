import type { GreyImage } from '../ports/image-backend.js';

/** Greyscale from interleaved RGBA (or RGB with channels = 3), luma weights of ITU-R BT.601. */
export function greyFromInterleaved(
  pixels: ArrayLike<number>,
  width: number,
  height: number,
  channels: number,
): GreyImage {
  const data = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < data.length; i++, p += channels) {
    const r = pixels[p] ?? 0;
    const g = pixels[p + 1] ?? 0;
    const b = pixels[p + 2] ?? 0;
    let grey = 0.299 * r + 0.587 * g + 0.114 * b;
    if (channels === 4) {
      // Transparent pixels read as white paper, not black.
      const alpha = (pixels[p + 3] ?? 255) / 255;
      grey = grey * alpha + 255 * (1 - alpha);
    }
    data[i] = Math.round(grey);
  }
  return { width, height, data };
}

/** A rectangle of the image, clamped to its bounds. */
export function crop(image: GreyImage, x: number, y: number, width: number, height: number): GreyImage {
  const x0 = clampInt(x, 0, image.width);
  const y0 = clampInt(y, 0, image.height);
  const x1 = clampInt(x + width, x0, image.width);
  const y1 = clampInt(y + height, y0, image.height);
  const w = x1 - x0;
  const h = y1 - y0;
  const data = new Uint8Array(w * h);
  for (let row = 0; row < h; row++) {
    const start = (y0 + row) * image.width + x0;
    data.set(image.data.subarray(start, start + w), row * w);
  }
  return { width: w, height: h, data };
}

/** Turns the image clockwise by a right angle: exact, no resampling. */
export function rotateRightAngle(image: GreyImage, degrees: 0 | 90 | 180 | 270): GreyImage {
  if (degrees === 0) return { width: image.width, height: image.height, data: image.data.slice() };
  const { width: w, height: h, data: src } = image;
  const turned = degrees === 180 ? { width: w, height: h } : { width: h, height: w };
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const value = src[y * w + x] ?? 255;
      let nx: number;
      let ny: number;
      if (degrees === 90) {
        nx = h - 1 - y;
        ny = x;
      } else if (degrees === 180) {
        nx = w - 1 - x;
        ny = h - 1 - y;
      } else {
        nx = y;
        ny = w - 1 - x;
      }
      out[ny * turned.width + nx] = value;
    }
  }
  return { ...turned, data: out };
}

/** Binary PGM (P5): the cheapest encoded form tesseract reads. */
export function encodePgm(image: GreyImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const out = new Uint8Array(header.length + image.data.length);
  out.set(header, 0);
  out.set(image.data, header.length);
  return out;
}

/**
 * The grey of the paper: the median of the image's pixels (most of a page is paper). What a turned
 * page's new corners are filled with, so they add no edge the page does not have.
 */
export function paperTone(image: GreyImage): number {
  const histogram = new Uint32Array(256);
  const { data } = image;
  // Every fourth pixel is plenty for a median and a quarter of the work.
  for (let i = 0; i < data.length; i += 4) histogram[data[i]!]!++;
  const half = Math.ceil(data.length / 4) / 2;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= half) return v;
  }
  return 255;
}

/** Otsu's threshold of the histogram: the grey level that best splits ink from paper. */
export function otsuThreshold(image: GreyImage): number {
  const histogram = new Array<number>(256).fill(0);
  for (const value of image.data) histogram[value] = (histogram[value] ?? 0) + 1;
  const total = image.data.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * (histogram[i] ?? 0);
  let sumBackground = 0;
  let weightBackground = 0;
  let best = 0;
  let threshold = 127;
  for (let i = 0; i < 256; i++) {
    weightBackground += histogram[i] ?? 0;
    if (weightBackground === 0) continue;
    const weightForeground = total - weightBackground;
    if (weightForeground === 0) break;
    sumBackground += i * (histogram[i] ?? 0);
    const meanBackground = sumBackground / weightBackground;
    const meanForeground = (sum - sumBackground) / weightForeground;
    const between = weightBackground * weightForeground * (meanBackground - meanForeground) ** 2;
    if (between > best) {
      best = between;
      threshold = i;
    }
  }
  return threshold;
}

function clampInt(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, Math.round(value)));
}

/** Shrinks by an integer factor, each output pixel the mean of its cell. */
export function downsample(image: GreyImage, factor: number): GreyImage {
  if (factor <= 1) return image;
  const width = Math.max(1, Math.floor(image.width / factor));
  const height = Math.max(1, Math.floor(image.height / factor));
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * image.width + x * factor;
        for (let dx = 0; dx < factor; dx++) sum += image.data[row + dx] ?? 255;
      }
      data[y * width + x] = Math.round(sum / (factor * factor));
    }
  }
  return { width, height, data };
}
