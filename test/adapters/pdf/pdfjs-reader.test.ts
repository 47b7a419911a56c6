import { describe, expect, it } from 'vitest';
import { createPdfjsReader } from '../../../src/adapters/pdf/pdfjs-reader.js';
import { INVOICE_LINES, makeTextPdf } from '../../helpers/make-documents.js';
import { pdfReaderContract } from '../../ports/pdf-reader.contract.js';

pdfReaderContract('pdf.js in this thread', async () => ({ reader: createPdfjsReader() }));

describe('pdfjs PdfReader', () => {
  it('leaves the host process its own JSON and Array built-ins after loading pdfjs', async () => {
    const doc = await createPdfjsReader().open(await makeTextPdf([{ lines: INVOICE_LINES }]));
    await (await doc.page(1)).textRuns();
    await doc.close();
    expect(Function.prototype.toString.call(JSON.stringify)).toContain('[native code]');
    expect(Function.prototype.toString.call(JSON.parse)).toContain('[native code]');
    expect(Function.prototype.toString.call(Array.prototype.push)).toContain('[native code]');
  });
});
