/**
 * Runs the command line as bin/docex.js does, from the TypeScript sources (no build needed):
 * `node --import tsx test/cli/run-cli.ts extract ...`. For tests where signals and terminals matter.
 */
import { main } from '../../src/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`docex: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
