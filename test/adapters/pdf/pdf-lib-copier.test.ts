import { createPdfLibCopier } from '../../../src/adapters/pdf/pdf-lib-copier.js';
import { pdfPageCopierContract } from '../../ports/pdf-page-copier.contract.js';

pdfPageCopierContract('pdf-lib in this thread', async () => ({ copier: createPdfLibCopier() }));
