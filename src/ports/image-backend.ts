/** A decoded greyscale image: one byte a pixel, row-major, 0 black .. 255 white. */
export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Image decoding and the geometric work that needs a real image library. Pixel-level steps that are
 * simple loops (greyscale from RGBA, crop, right-angle turns, PGM encoding) live in
 * src/documents/raster.ts and work with any backend.
 *
 * Contract (test/ports/image-backend.contract.ts runs every adapter through it):
 * - `decode` reads PNG or JPEG bytes, applies the EXIF orientation (so the result is the image as a
 *   viewer shows it) and converts to greyscale: by default the luma of each pixel (ITU-R BT.601
 *   weights); with `channel: 'lightest'` its lightest colour channel, in which coloured ink (a red
 *   stamp, a blue pen mark over the print) turns as light as the paper while black print stays black.
 *   Transparent pixels are shown on white either way. It refuses an image with more than `maxPixels`
 *   pixels with DocexError('IMAGE_TOO_LARGE') before allocating it, and corrupt bytes with
 *   DocexError('IMAGE_CORRUPT').
 * - `rotate` turns the image clockwise by any angle in degrees about its centre; the canvas grows to
 *   hold the whole turned image and new pixels are `background` (default white, 255).
 * - `resize` scales to the given size with a smoothing filter.
 * No method changes its input.
 */
export interface DecodeOptions {
  maxPixels: number;
  /** How a colour pixel becomes grey: its luma (default) or its lightest channel. */
  channel?: 'luma' | 'lightest';
}

export interface ImageBackend {
  readonly name: string;
  decode(bytes: Uint8Array, options: DecodeOptions): Promise<GreyImage>;
  rotate(image: GreyImage, degrees: number, background?: number): Promise<GreyImage>;
  resize(image: GreyImage, width: number, height: number): Promise<GreyImage>;
}
