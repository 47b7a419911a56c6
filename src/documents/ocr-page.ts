import type { GreyImage, ImageBackend } from '../ports/image-backend.js';
import type { OcrEngine, OcrOptions, OcrWord } from '../ports/ocr-engine.js';
import { compose, mapBox, scaleMap, undoRightAngle, undoRotation, type PointMap } from './geometry.js';
import { layoutWords, type FrameBox } from './layout.js';
import { analysePageGeometry } from './orientation.js';
import { crop, paperTone, rotateRightAngle } from './raster.js';
import { fillUnread, unreadPrint } from './unread-print.js';
import {
  hasColouredMarks,
  MAX_SECOND_READING_PIXELS,
  readingQuality,
  sauvolaBinarise,
} from './second-reading.js';

/** Words, lines and blocks of one recognised region, boxes in pixels of the image as given. */
export interface RecognisedRegion {
  blocks: Array<{ lines: Array<{ words: Array<{ text: string; confidence: number; box: FrameBox }> }> }>;
  correction: { rightAngle: 0 | 90 | 180 | 270; skew: number };
  /** Share of dark pixels of the image (a blank scan has next to none). */
  ink: number;
  /**
   * A second reading of a weak page, from the same upright image thresholded locally (Sauvola): its
   * words and blocks in the same pixels. Extraction chooses per field between the readings.
   */
  second?: RecognisedRegion['blocks'];
}

export interface OcrPageDeps {
  ocr: OcrEngine;
  images: ImageBackend;
}

/** Skew below this many degrees is left alone: turning costs time and blurs the print. */
const MIN_SKEW = 0.3;
/** Text lines shorter than this many pixels are enlarged before recognition... */
const SMALL_LINE = 18;
/** ...to about this height. */
const TARGET_LINE = 28;
/**
 * Text lines taller than this many pixels are reduced before recognition, to about LARGE_TARGET:
 * tesseract's page analysis costs by the pixel while its line recogniser scales every line to a fixed
 * height anyway, so the extra resolution of a 300 dpi rendering or a 400 dpi scan only costs time.
 */
const LARGE_LINE = 36;
const LARGE_TARGET = 30;
/** Below this quality the other reading (turned by 180 degrees) is tried too. */
const CONFIDENT_READING = 0.65;

/**
 * Recognises a page image as the user sees it: finds sideways and upside-down text and skew, turns the
 * image upright for the recogniser, and maps every box back to the image as given.
 */
export async function recognisePage(
  image: GreyImage,
  deps: OcrPageDeps,
  options: {
    dpi?: number;
    detectOrientation: boolean;
    pageSegmentationMode?: number;
    /**
     * A reading whose words average a confidence below this (by letters and digits) is read again from
     * a locally thresholded image (src/documents/second-reading.ts), given as `second`. 0: never.
     */
    secondReadingBelow?: number;
    /**
     * The same image decoded from its lightest colour channel (coloured stamps and pen marks as light
     * as the paper), the source of the second reading when given: read only when one is needed.
     */
    lightest?: () => Promise<GreyImage>;
    /**
     * Another segmentation mode, read as well when the first reading leaves more than `above` of the
     * page's print uncovered (unread-print.ts); its words fill the places the first left unread.
     */
    completeWith?: { pageSegmentationMode: number; above: number };
  },
): Promise<RecognisedRegion> {
  const geometry = analysePageGeometry(image);
  const ink = geometry.ink;
  if (ink < 0.0005) return { blocks: [], correction: { rightAngle: 0, skew: 0 }, ink };

  let toGiven: PointMap = (x, y) => [x, y];
  let dpi = options.dpi;
  const factor = resolutionFactor(geometry.lineHeight, Math.min(image.width, image.height));
  const width = Math.round(image.width * factor);
  const height = Math.round(image.height * factor);
  // The image at recognition size (the same steps serve the lightest channel's image).
  const scaled = (from: GreyImage): Promise<GreyImage> | GreyImage =>
    factor === 1 ? from : deps.images.resize(from, width, height);
  const working = await scaled(image);
  if (factor !== 1) {
    toGiven = scaleMap(image.width / width, image.height / height);
    if (dpi) dpi *= factor;
  }

  const readings: Array<0 | 90 | 180 | 270> = !options.detectOrientation
    ? [0]
    : geometry.sideways
      ? [270, 90, 0]
      : [0, 180];
  const skew = options.detectOrientation && Math.abs(geometry.skew) >= MIN_SKEW ? geometry.skew : 0;

  let best:
    | {
        words: OcrWord[];
        rightAngle: 0 | 90 | 180 | 270;
        toWorking: PointMap;
        score: number;
        mean: number;
        upright: GreyImage;
      }
    | undefined;
  const recogniseOptions = {
    ...(dpi === undefined ? {} : { dpi }),
    ...(options.pageSegmentationMode === undefined
      ? {}
      : { pageSegmentationMode: options.pageSegmentationMode }),
  };
  // The working image turned upright for one reading; the same for the lightest channel's image.
  const turnedUpright = async (
    from: GreyImage,
    rightAngle: 0 | 90 | 180 | 270,
  ): Promise<{ turned: GreyImage; upright: GreyImage }> => {
    const turned = rotateRightAngle(from, rightAngle);
    // The corners a turn adds take the paper's grey: white corners on a grey photo made tesseract's
    // own threshold fall between them and the paper, and a whole page read as no words.
    return {
      turned,
      upright: skew === 0 ? turned : await deps.images.rotate(turned, -skew, paperTone(turned)),
    };
  };
  for (const rightAngle of readings) {
    const { turned, upright } = await turnedUpright(working, rightAngle);
    let toWorking = undoRightAngle(rightAngle, working.width, working.height);
    if (skew !== 0) {
      toWorking = compose(
        undoRotation(-skew, turned.width, turned.height, upright.width, upright.height),
        toWorking,
      );
    }
    const words = await deps.ocr.recognize(upright, recogniseOptions);
    const quality = readingQuality(words);
    if (!best || quality.score > best.score)
      best = { words, rightAngle, toWorking, score: quality.score, mean: quality.mean, upright };
    if (quality.mean >= CONFIDENT_READING && quality.chars >= 20) break;
  }
  if (!best) return { blocks: [], correction: { rightAngle: 0, skew: 0 }, ink };
  if (options.completeWith) {
    const unread = unreadPrint(best.upright, best.words);
    if (unread.share > options.completeWith.above) {
      const other = await readUnread(best.upright, unread.bands, deps.ocr, {
        ...recogniseOptions,
        pageSegmentationMode: options.completeWith.pageSegmentationMode,
      });
      best.words = fillUnread(best.words, other);
    }
  }

  const toImage = compose(best.toWorking, toGiven);
  const region: RecognisedRegion = {
    blocks: wordBlocks(best.words, toImage),
    correction: { rightAngle: best.rightAngle, skew },
    ink,
  };
  const { upright } = best;
  const rightAngle = best.rightAngle;
  // A photo with coloured marks is read the second time from its lightest channel, a stamp over the
  // print gone; a grey one (or an image of another size, which should not happen) as it was read.
  const lightestUpright = async (): Promise<GreyImage> => {
    // (The same bytes decoded once already: should the second decoding fail, the reading is the
    // first image's, as for any grey photo.)
    const lightest = await options.lightest?.().catch(() => undefined);
    if (!lightest || !hasColouredMarks(image, lightest)) return upright;
    return (await turnedUpright(await scaled(lightest), rightAngle)).upright;
  };
  if (
    best.mean < (options.secondReadingBelow ?? 0) &&
    upright.width * upright.height <= MAX_SECOND_READING_PIXELS
  ) {
    const source = await lightestUpright();
    const second = await deps.ocr.recognize(sauvolaBinarise(source), recogniseOptions);
    region.second = wordBlocks(second, toImage);
  }
  return region;
}

/** At most this many bands of unread print are read apart; more, and the page is read whole. */
const MAX_UNREAD_BANDS = 4;
/** Bands together this share of the page's height or more: the page is read whole. */
const WHOLE_PAGE = 0.5;

/**
 * The words of the bands of a page that hold unread print, read in `options`' segmentation mode, in
 * the page's pixels: each band apart (a letterhead's band costs a fraction of the page), or the page
 * whole when the bands are many or cover much of it.
 */
async function readUnread(
  page: GreyImage,
  bands: ReadonlyArray<readonly [number, number]>,
  ocr: OcrEngine,
  options: OcrOptions,
): Promise<OcrWord[]> {
  const tall = bands.reduce((sum, [y0, y1]) => sum + (y1 - y0), 0);
  if (bands.length > MAX_UNREAD_BANDS || tall >= WHOLE_PAGE * page.height)
    return ocr.recognize(page, options);
  const words: OcrWord[] = [];
  for (const [y0, y1] of bands) {
    const band = await ocr.recognize(crop(page, 0, y0, page.width, y1 - y0), options);
    for (const w of band) words.push({ ...w, y0: w.y0 + y0, y1: w.y1 + y0 });
  }
  return words;
}

/** Recognised words laid out in blocks of lines, boxes mapped to the image as given. */
function wordBlocks(words: OcrWord[], toImage: PointMap): RecognisedRegion['blocks'] {
  const frameBoxes = words.map((w) => ({ x0: w.x0, y0: w.y0, x1: w.x1, y1: w.y1 }));
  return layoutWords(frameBoxes).map((block) => ({
    lines: block.lines.map((line) => ({
      words: line.words.map((index) => ({
        text: words[index]!.text,
        confidence: words[index]!.confidence,
        box: mapBox(frameBoxes[index]!, toImage),
      })),
    })),
  }));
}

/**
 * How much an image is scaled for recognition, from the height of its text lines (0: not known). A
 * "line height" above a sixth of the image's shorter side is no line of text (a dark background or a
 * photo measured as one run) and is not acted on.
 */
export function resolutionFactor(lineHeight: number, shorterSide: number): number {
  if (lineHeight <= 0) return 1;
  if (lineHeight < SMALL_LINE) return Math.min(3, TARGET_LINE / lineHeight);
  if (lineHeight > LARGE_LINE && lineHeight <= shorterSide / 6)
    return Math.max(0.5, LARGE_TARGET / lineHeight);
  return 1;
}
