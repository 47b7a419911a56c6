import type { FrameBox } from './layout.js';

/** Maps a point of one coordinate frame to another. */
export type PointMap = (x: number, y: number) => [number, number];

/** The axis-aligned box around a box's four corners after mapping. */
export function mapBox(box: FrameBox, map: PointMap): FrameBox {
  // Called for every word, twice: no intermediate arrays.
  const [ax, ay] = map(box.x0, box.y0);
  const [bx, by] = map(box.x1, box.y0);
  const [cx, cy] = map(box.x0, box.y1);
  const [dx, dy] = map(box.x1, box.y1);
  return {
    x0: Math.min(ax, bx, cx, dx),
    y0: Math.min(ay, by, cy, dy),
    x1: Math.max(ax, bx, cx, dx),
    y1: Math.max(ay, by, cy, dy),
  };
}

export function compose(...maps: PointMap[]): PointMap {
  return (x, y) => maps.reduce<[number, number]>((p, m) => m(p[0], p[1]), [x, y]);
}

/** For an image of size (width, height) turned clockwise by a right angle: where a point lands. */
export function turnRightAngle(degrees: 0 | 90 | 180 | 270, width: number, height: number): PointMap {
  switch (degrees) {
    case 0:
      return (x, y) => [x, y];
    case 90:
      return (x, y) => [height - y, x];
    case 180:
      return (x, y) => [width - x, height - y];
    case 270:
      return (x, y) => [y, width - x];
  }
}

/**
 * For an image of size (width, height) turned clockwise by a right angle: maps a point of the turned
 * image back to the original.
 */
export function undoRightAngle(degrees: 0 | 90 | 180 | 270, width: number, height: number): PointMap {
  switch (degrees) {
    case 0:
      return (x, y) => [x, y];
    case 90:
      return (x, y) => [y, height - x];
    case 180:
      return (x, y) => [width - x, height - y];
    case 270:
      return (x, y) => [width - y, x];
  }
}

/**
 * For an image of size (width, height) turned clockwise by `degrees` about its centre onto a canvas of
 * size (outWidth, outHeight) centred on the same point: maps a point of the result back to the original.
 */
export function undoRotation(
  degrees: number,
  width: number,
  height: number,
  outWidth: number,
  outHeight: number,
): PointMap {
  const theta = (degrees * Math.PI) / 180;
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  return (x, y) => {
    const dx = x - outWidth / 2;
    const dy = y - outHeight / 2;
    return [cos * dx + sin * dy + width / 2, -sin * dx + cos * dy + height / 2];
  };
}

export function scaleMap(sx: number, sy: number): PointMap {
  return (x, y) => [x * sx, y * sy];
}

export function clampBox01(box: FrameBox): FrameBox {
  const c = (v: number): number => Math.max(0, Math.min(1, v));
  return { x0: c(box.x0), y0: c(box.y0), x1: c(box.x1), y1: c(box.y1) };
}

export function area(box: FrameBox): number {
  return Math.max(0, box.x1 - box.x0) * Math.max(0, box.y1 - box.y0);
}

export function intersection(a: FrameBox, b: FrameBox): number {
  return area({
    x0: Math.max(a.x0, b.x0),
    y0: Math.max(a.y0, b.y0),
    x1: Math.min(a.x1, b.x1),
    y1: Math.min(a.y1, b.y1),
  });
}
