// Copies the review page's static files next to the compiled code (tsc copies no .html/.css/.js).
import { cpSync } from 'node:fs';
cpSync('src/review/static', 'dist/src/review/static', { recursive: true });
