import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, StandardFonts, type PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createPdfjsReader } from '../../../src/adapters/pdf/pdfjs-reader.js';
import { rawImageVerdict } from '../../../src/adapters/pdf/raw-images.js';
import { INVOICE_LINES, makeEncryptedPdf, makeMixedPdf, makeTextPdf } from '../../helpers/make-documents.js';

/** A 2 x 2 grey picture drawn 100 pt wide, as an inline image. */
const INLINE_IMAGE = 'q 100 0 0 100 50 50 cm BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\xff\xff\x00 EI Q';

/** A text page (pdf-lib, object streams on) plus one more content stream made by `stream`. */
async function textPdfWith(stream: (doc: PDFDocument) => PDFRawStream): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([300, 300]);
  page.drawText('Invoice 42 Total 150.00', { x: 20, y: 250, size: 12, font });
  page.node.addContentStream(doc.context.register(stream(doc)));
  return doc.save();
}

/**
 * A one-page PDF written by hand (names exactly as given, no object streams): `image` is the
 * dictionary of an image XObject the page draws, without its << >>.
 */
function handWrittenPdf(image: string): Uint8Array {
  const pixels = '\x00\xff\xff\x00';
  const content = 'q 100 0 0 100 50 50 cm /Im1 Do Q';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< ${image} /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n${pixels}\nendstream`,
    '/Image',
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function pageHasImages(pdf: Uint8Array): Promise<boolean> {
  const doc = await createPdfjsReader().open(pdf);
  try {
    return await (await doc.page(1)).hasImages();
  } finally {
    await doc.close();
  }
}

describe('rawImageVerdict: images seen in the raw bytes of a PDF', () => {
  it('finds no image in a text-only PDF (and the reader answers from that alone)', async () => {
    const pdf = await makeTextPdf([{ lines: INVOICE_LINES }, { lines: INVOICE_LINES }]);
    expect(rawImageVerdict(pdf)).toBe('none');
    expect(await pageHasImages(pdf)).toBe(false);
  });

  it('finds an image XObject even when the other objects sit in compressed object streams', async () => {
    const pdf = await makeMixedPdf('LOGO', INVOICE_LINES.slice(2));
    expect(rawImageVerdict(pdf)).toBe('image-xobject');
    expect(await pageHasImages(pdf)).toBe(true);
  });

  it('finds an inline image in a Flate-compressed content stream and in an uncompressed one', async () => {
    const compressed = await textPdfWith((doc) => doc.context.flateStream(INLINE_IMAGE));
    expect(rawImageVerdict(compressed)).toBe('inline-image');
    expect(await pageHasImages(compressed)).toBe(true);
    const plain = await textPdfWith((doc) => doc.context.stream(INLINE_IMAGE));
    expect(rawImageVerdict(plain)).toBe('inline-image');
    expect(await pageHasImages(plain)).toBe(true);
  });

  it('reads names written with # escapes and whitespace or comments between key and value', () => {
    expect(rawImageVerdict(handWrittenPdf('/Type /XObject /Subtype /Image'))).toBe('image-xobject');
    expect(rawImageVerdict(handWrittenPdf('/Type/XObject/Subtype/Image'))).toBe('image-xobject');
    expect(rawImageVerdict(handWrittenPdf('/Subtype % a comment\n /Image'))).toBe('image-xobject');
    expect(rawImageVerdict(handWrittenPdf('/Subtype /Im#61ge'))).toBe('image-xobject');
    expect(rawImageVerdict(handWrittenPdf('/Sub#74ype /Image'))).toBe('image-xobject');
  });

  it('answers unknown when the bytes cannot be trusted, and the reader then asks pdfjs', async () => {
    // The subtype given by reference (object 6 is the name /Image).
    const byReference = handWrittenPdf('/Subtype 6 0 R');
    expect(rawImageVerdict(byReference)).toBe('unknown');
    expect(await pageHasImages(byReference)).toBe(true);
    // A name the search relies on, written with an escape.
    expect(rawImageVerdict(handWrittenPdf('/Subtype /Form /Fil#74er /FlateDecode'))).toBe('unknown');
    // Encrypted: stream data (and any inline image in it) cannot be read.
    expect(rawImageVerdict(await makeEncryptedPdf())).toBe('unknown');
    // A content stream under a filter other than Flate: its inline image is invisible in the bytes.
    const hex = Buffer.from(INLINE_IMAGE, 'latin1').toString('hex') + '>';
    const asciiHex = await textPdfWith((doc) =>
      doc.context.stream(hex, { Filter: PDFName.of('ASCIIHexDecode') }),
    );
    expect(rawImageVerdict(asciiHex)).toBe('unknown');
    expect(await pageHasImages(asciiHex)).toBe(true);
    // Flate with a predictor: the inflated bytes are not the content yet.
    const predicted = await textPdfWith((doc) =>
      doc.context.stream(deflateSync(Buffer.from('q Q', 'latin1')), {
        Filter: 'FlateDecode',
        DecodeParms: { Predictor: 2, Columns: 3 },
      }),
    );
    expect(rawImageVerdict(predicted)).toBe('unknown');
  });

  it('answers for bytes that are not a PDF at all', () => {
    const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
    expect(rawImageVerdict(new Uint8Array(0))).toBe('none');
    expect(rawImageVerdict(bytes('obj<< >>\nstream\nBI'))).toBe('unknown');
    expect(rawImageVerdict(bytes('/Subtype'))).toBe('unknown');
    expect(rawImageVerdict(bytes('1 0 obj << /Filter /FlateDecode >>\nstream\nnot flate\nendstream'))).toBe(
      'unknown',
    );
  });

  it('does not mistake text or names for images', async () => {
    // "BI" in a shown string and as a resource name, "/Image" in a /ProcSet: no image.
    const pdf = await textPdfWith((doc) =>
      doc.context.flateStream('BT /F1 12 Tf 20 20 Td (ABI Image BI) Tj ET /BI gs'),
    );
    expect(rawImageVerdict(pdf)).toBe('none');
    expect(rawImageVerdict(handWrittenPdf('/Subtype /Form /ProcSet [/PDF /ImageB]'))).toBe('none');
  });
});
