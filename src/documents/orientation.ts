import type { GreyImage } from '../ports/image-backend.js';
import { otsuThreshold } from './raster.js';

export interface PageGeometry {
  /** Whether text lines run up and down the image (the page was scanned or shown sideways). */
  sideways: boolean;
  /** Skew of the text lines in degrees, clockwise positive, in the frame where they run across. */
  skew: number;
  /** Median height of a text line in pixels of the analysed image (0 when no lines were found). */
  lineHeight: number;
  /** Share of dark pixels: near 0 for a blank page. */
  ink: number;
}

/** Long side the analysis works at: enough to resolve lines of body text on a page. */
const ANALYSIS_SIZE = 1000;
const MAX_SKEW = 6;
const SKEW_STEP = 0.25;

/**
 * Measures how text lies on a page image by projection profiles: for each candidate angle the dark
 * pixels are projected across the lines, and the angle whose profile is sharpest (lines and gaps
 * alternating) is the lines' direction. Cheap and library-free; right angles are told apart later by
 * recognising both readings.
 */
export function analysePageGeometry(image: GreyImage): PageGeometry {
  const factor = Math.max(1, Math.ceil(Math.max(image.width, image.height) / ANALYSIS_SIZE));
  const small = downsample(image, factor);
  const threshold = Math.min(otsuThreshold(small), 200);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < small.height; y++) {
    for (let x = 0; x < small.width; x++) {
      if ((small.data[y * small.width + x] ?? 255) < threshold) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  const ink = xs.length / Math.max(1, small.width * small.height);
  if (xs.length < 50 || ink > 0.6) return { sideways: false, skew: 0, lineHeight: 0, ink };
  const across = bestAngle(xs, ys, small.width, small.height, 0);
  const upDown = bestAngle(xs, ys, small.width, small.height, 90);
  const sideways = upDown.score > across.score * 1.15;
  const best = sideways ? upDown : across;
  return { sideways, skew: best.angle, lineHeight: best.lineHeight * factor, ink };
}

function bestAngle(
  xs: number[],
  ys: number[],
  width: number,
  height: number,
  base: number,
): { angle: number; score: number; lineHeight: number } {
  const cx = width / 2;
  const cy = height / 2;
  const size = Math.ceil(Math.hypot(width, height)) + 2;
  let best = { angle: 0, score: -1, lineHeight: 0 };
  let bestBins: Float64Array | undefined;
  for (let angle = -MAX_SKEW; angle <= MAX_SKEW + 1e-9; angle += SKEW_STEP) {
    const theta = ((base + angle) * Math.PI) / 180;
    // Position across the lines of a pixel when the lines are turned by theta (clockwise, y down).
    const sin = Math.sin(theta);
    const cos = Math.cos(theta);
    const bins = new Float64Array(size);
    for (let i = 0; i < xs.length; i++) {
      const across = -(xs[i]! - cx) * sin + (ys[i]! - cy) * cos;
      bins[Math.round(across + size / 2)]! += 1;
    }
    let score = 0;
    for (let i = 1; i < size; i++) score += (bins[i]! - bins[i - 1]!) ** 2;
    // Prefer the smaller angle between near-ties: a straight page should stay straight.
    if (
      score > best.score * (1 + 1e-3) ||
      (Math.abs(score - best.score) <= best.score * 1e-3 && Math.abs(angle) < Math.abs(best.angle))
    ) {
      best = { angle, score, lineHeight: 0 };
      bestBins = bins;
    }
  }
  best.lineHeight = bestBins ? medianRunLength(bestBins) : 0;
  // The angle found is the lines' direction; for sideways pages it is measured in the turned frame.
  return best;
}

/** Median length of runs of non-empty bins: the height of a text line. */
function medianRunLength(bins: Float64Array): number {
  let max = 0;
  for (const v of bins) max = Math.max(max, v);
  const floor = max * 0.05;
  const runs: number[] = [];
  let run = 0;
  for (const v of bins) {
    if (v > floor) run++;
    else if (run > 0) {
      runs.push(run);
      run = 0;
    }
  }
  if (run > 0) runs.push(run);
  if (runs.length === 0) return 0;
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)]!;
}

/** Shrinks by an integer factor, each output pixel the mean of its cell. */
function downsample(image: GreyImage, factor: number): GreyImage {
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
