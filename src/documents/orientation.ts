import type { GreyImage } from '../ports/image-backend.js';
import { downsample, otsuThreshold } from './raster.js';

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
  const { xs, ys } = inkPixels(small);
  const ink = xs.length / Math.max(1, small.width * small.height);
  if (xs.length < 50 || ink > 0.6) return { sideways: false, skew: 0, lineHeight: 0, ink };
  const sideways = neighbourDirection(xs, ys, small.width, small.height) === 'vertical';
  const across = sideways ? undefined : bestAngle(xs, ys, small.width, small.height, 0);
  const upDown = sideways ? bestAngle(xs, ys, small.width, small.height, 90) : undefined;
  const best = (sideways ? upDown : across)!;
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

/**
 * Which way text runs, from its glyphs: the nearest neighbour of a glyph is, far more often than not,
 * the next glyph on its line (letters sit closer together than lines do). Connected blobs of ink of
 * about a glyph's size vote with the direction to their nearest neighbour. Projection profiles cannot
 * tell this apart on monospaced print, whose columns line up as sharply as its lines.
 */
function neighbourDirection(
  xs: number[],
  ys: number[],
  width: number,
  height: number,
): 'horizontal' | 'vertical' | 'unknown' {
  const label = new Int32Array(width * height).fill(-1);
  const parent: number[] = [];
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!;
      a = parent[a]!;
    }
    return a;
  };
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    const left = x > 0 ? label[y * width + x - 1]! : -1;
    const up = y > 0 ? label[(y - 1) * width + x]! : -1;
    let id: number;
    if (left < 0 && up < 0) {
      id = parent.length;
      parent.push(id);
    } else if (left >= 0 && up >= 0) {
      const a = find(left);
      const b = find(up);
      id = Math.min(a, b);
      parent[Math.max(a, b)] = id;
    } else {
      id = left >= 0 ? left : up;
    }
    label[y * width + x] = id;
  }
  const boxes = new Map<number, { x0: number; y0: number; x1: number; y1: number; n: number }>();
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const y = ys[i]!;
    const root = find(label[y * width + x]!);
    const box = boxes.get(root);
    if (box) {
      box.x0 = Math.min(box.x0, x);
      box.y0 = Math.min(box.y0, y);
      box.x1 = Math.max(box.x1, x);
      box.y1 = Math.max(box.y1, y);
      box.n++;
    } else boxes.set(root, { x0: x, y0: y, x1: x, y1: y, n: 1 });
  }
  // Glyph-sized blobs only: not specks, not rules, frames or pictures.
  const glyphs = [...boxes.values()].filter((b) => {
    const w = b.x1 - b.x0 + 1;
    const h = b.y1 - b.y0 + 1;
    return b.n >= 3 && Math.max(w, h) >= 3 && w <= 40 && h <= 40 && Math.max(w, h) <= 4 * Math.min(w, h);
  });
  if (glyphs.length < 30) return 'unknown';
  const cell = 24;
  const columns = Math.ceil(width / cell);
  const grid = new Map<number, number[]>();
  const centres = glyphs.map((b) => [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2] as const);
  centres.forEach(([cx, cy], i) => {
    const key = Math.floor(cy / cell) * columns + Math.floor(cx / cell);
    const list = grid.get(key);
    if (list) list.push(i);
    else grid.set(key, [i]);
  });
  let horizontal = 0;
  let vertical = 0;
  centres.forEach(([cx, cy], i) => {
    const gx = Math.floor(cx / cell);
    const gy = Math.floor(cy / cell);
    let best = Infinity;
    let dx = 0;
    let dy = 0;
    for (let oy = -1; oy <= 1; oy++) {
      for (let ox = -1; ox <= 1; ox++) {
        for (const j of grid.get((gy + oy) * columns + gx + ox) ?? []) {
          if (j === i) continue;
          const [jx, jy] = centres[j]!;
          const d = (jx - cx) ** 2 + (jy - cy) ** 2;
          if (d < best) {
            best = d;
            dx = jx - cx;
            dy = jy - cy;
          }
        }
      }
    }
    if (best === Infinity) return;
    const angle = Math.abs((Math.atan2(dy, dx) * 180) / Math.PI) % 180;
    if (angle < 30 || angle > 150) horizontal++;
    else if (angle > 60 && angle < 120) vertical++;
  });
  if (vertical > horizontal * 1.3) return 'vertical';
  if (horizontal > vertical * 1.3) return 'horizontal';
  return 'unknown';
}

/**
 * Dark pixels relative to their surroundings (Bradley's adaptive threshold on an integral image):
 * print on paper counts, a dark table or background around a photographed receipt does not, and
 * neither do the long straight edges where the paper ends, which would mimic text lines.
 */
function inkPixels(image: GreyImage): { xs: number[]; ys: number[] } {
  const { width, height, data } = image;
  const integral = new Float64Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += data[y * width + x] ?? 255;
      integral[(y + 1) * (width + 1) + x + 1] = integral[y * (width + 1) + x + 1]! + row;
    }
  }
  const half = Math.max(4, Math.round(Math.max(width, height) / 60));
  const global = Math.min(otsuThreshold(image), 220);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - half);
    const y1 = Math.min(height, y + half + 1);
    for (let x = 0; x < width; x++) {
      const value = data[y * width + x] ?? 255;
      // Dark against its neighbourhood, and not lighter than the page's own split of ink and paper.
      if (value > global + 40) continue;
      const x0 = Math.max(0, x - half);
      const x1 = Math.min(width, x + half + 1);
      const sum =
        integral[y1 * (width + 1) + x1]! -
        integral[y0 * (width + 1) + x1]! -
        integral[y1 * (width + 1) + x0]! +
        integral[y0 * (width + 1) + x0]!;
      const mean = sum / ((x1 - x0) * (y1 - y0));
      if (value < mean * 0.85) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  return { xs, ys };
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
