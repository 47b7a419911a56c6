/**
 * Groups words into lines and lines into blocks. Works in a "reading frame": coordinates in which the
 * words' text runs left to right with y down (for OCR, the deskewed image; for a PDF text layer, the
 * page turned so the run's direction points right). Callers map the boxes back to the page after.
 */
export interface FrameBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface LaidOutLine {
  /** Indexes into the input words, left to right. */
  words: number[];
  box: FrameBox;
}

export interface LaidOutBlock {
  lines: LaidOutLine[];
  box: FrameBox;
}

/** How far apart two words of one line may be, in multiples of the line height. */
const MAX_WORD_GAP = 2.5;
/** How far apart two lines of one block may be, in multiples of the taller line's height. */
const MAX_LINE_GAP = 1.0;

export function layoutWords(boxes: readonly FrameBox[]): LaidOutBlock[] {
  const lines = groupLines(boxes);
  return groupBlocks(lines);
}

function groupLines(boxes: readonly FrameBox[]): LaidOutLine[] {
  const order = boxes
    .map((_, i) => i)
    .sort((a, b) => centreY(boxes[a]!) - centreY(boxes[b]!) || boxes[a]!.x0 - boxes[b]!.x0);
  const lines: LaidOutLine[] = [];
  // Lines still open for joining: the last few built, since words arrive sorted by their centre.
  for (const index of order) {
    const box = boxes[index]!;
    const height = box.y1 - box.y0;
    let target: LaidOutLine | undefined;
    for (let k = lines.length - 1; k >= 0 && k >= lines.length - 8; k--) {
      const line = lines[k]!;
      // Compare with the line's last word, not its whole box: a tall stray box must not pull
      // neighbouring lines together.
      const last = boxes[line.words[line.words.length - 1]!]!;
      const lastHeight = last.y1 - last.y0;
      const lineHeight = line.box.y1 - line.box.y0;
      if (Math.max(lastHeight, height) > 2 * Math.min(lastHeight, height)) continue;
      const overlap = Math.min(last.y1, box.y1) - Math.max(last.y0, box.y0);
      if (overlap < 0.5 * Math.min(lastHeight, height)) continue;
      const gap = Math.max(box.x0 - line.box.x1, line.box.x0 - box.x1);
      if (gap > MAX_WORD_GAP * Math.max(lineHeight, height)) continue;
      target = line;
      break;
    }
    if (target) {
      target.words.push(index);
      target.box = union(target.box, box);
    } else {
      lines.push({ words: [index], box: { ...box } });
    }
  }
  for (const line of lines) line.words.sort((a, b) => boxes[a]!.x0 - boxes[b]!.x0);
  return lines;
}

function groupBlocks(lines: LaidOutLine[]): LaidOutBlock[] {
  const sorted = [...lines].sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  const blocks: LaidOutBlock[] = [];
  for (const line of sorted) {
    const height = line.box.y1 - line.box.y0;
    let target: LaidOutBlock | undefined;
    for (let k = blocks.length - 1; k >= 0; k--) {
      const block = blocks[k]!;
      const last = block.lines[block.lines.length - 1]!;
      const lastHeight = last.box.y1 - last.box.y0;
      const verticalGap = line.box.y0 - last.box.y1;
      if (verticalGap > MAX_LINE_GAP * Math.max(height, lastHeight)) continue;
      const horizontalOverlap = Math.min(block.box.x1, line.box.x1) - Math.max(block.box.x0, line.box.x0);
      if (horizontalOverlap <= 0) continue;
      // Very different text sizes start a new block (a title above body text).
      if (Math.max(height, lastHeight) > 1.8 * Math.min(height, lastHeight)) continue;
      target = block;
      break;
    }
    if (target) {
      target.lines.push(line);
      target.box = union(target.box, line.box);
    } else {
      blocks.push({ lines: [line], box: { ...line.box } });
    }
  }
  // Reading order: top to bottom, then left to right, by the block's first line.
  return blocks.sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
}

function centreY(box: FrameBox): number {
  return (box.y0 + box.y1) / 2;
}

export function union(a: FrameBox, b: FrameBox): FrameBox {
  return {
    x0: Math.min(a.x0, b.x0),
    y0: Math.min(a.y0, b.y0),
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
  };
}
