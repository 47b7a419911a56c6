import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';

/** A run of text on a page: its left edge and baseline in points from the top left of the unrotated page. */
export interface TextLine {
  text: string;
  x: number;
  y: number;
  size?: number;
  bold?: boolean;
}

export interface TextPage {
  lines: TextLine[];
  /** /Rotate of the page. */
  rotate?: 0 | 90 | 180 | 270;
  width?: number;
  height?: number;
}

export const A4 = { width: 595, height: 842 };

/** A born-digital PDF of text runs drawn in Helvetica (Helvetica-Bold for bold runs), A4 unless told. */
export async function drawTextPdf(pages: readonly TextPage[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const spec of pages) {
    const width = spec.width ?? A4.width;
    const height = spec.height ?? A4.height;
    const page = doc.addPage([width, height]);
    if (spec.rotate) page.setRotation(degrees(spec.rotate));
    for (const line of spec.lines) {
      page.drawText(line.text, {
        x: line.x,
        y: height - line.y,
        size: line.size ?? 12,
        font: line.bold ? bold : regular,
      });
    }
  }
  return doc.save();
}
