import path from 'node:path';
import { CALIBRATION } from '../extraction/calibration.js';
import { extractFields, groupOf } from '../extraction/extract.js';
import { groundTruths, openCorpus } from './corpus-layers.js';
import type { TokenLayer } from '../core/types.js';
import type { FieldDefinition } from '../products/types.js';
import type { DocumentRecord, FieldRecord } from './ranker-training.js';
import { productFor } from './scoring.js';

/** Every document's fields: candidates with features, and the finders' own choice. */
export async function collectDocuments(
  dirs: string[],
  cache: string | undefined,
  reading?: Parameters<typeof openCorpus>[0]['reading'],
): Promise<DocumentRecord[]> {
  const corpus = openCorpus({ cache, reading });
  const documents: DocumentRecord[] = [];
  try {
    for (const dir of dirs) {
      const truths = groundTruths(dir);
      for (const [i, truth] of truths.entries()) {
        process.stderr.write(`\r[${dir}: ${i + 1}/${truths.length}] ${truth.file.slice(0, 50).padEnd(50)}`);
        const { layer } = await corpus.layer(path.join(dir, truth.file));
        const definitions = corpus.engine.catalogue
          .resolve([productFor(truth.type)])
          .fieldsets.flatMap((f) => f.fields)
          .filter((f) => f.kind !== 'table');
        const fields = collectFields(layer, definitions);
        // Further readings (a weak photo read again) are collected the same way: cross-validation
        // predicts them with each fold's model and chooses per field, as extraction does.
        const readings = (layer.readings ?? []).map((reading) => collectFields(reading, definitions));
        documents.push({
          // Several corpora: a file is named with its corpus, so names never collide.
          truth:
            dirs.length === 1
              ? truth
              : { ...truth, file: `${path.basename(path.resolve(dir))}/${truth.file}` },
          fields,
          ...(readings.length > 0 ? { readings } : {}),
        });
      }
    }
  } finally {
    await corpus.close();
    process.stderr.write('\n');
  }
  return documents;
}

/** The fields of one reading of a document: candidates with features, and the finders' own choice. */
function collectFields(layer: TokenLayer, definitions: FieldDefinition[]): FieldRecord[] {
  const collected = new Map<string, FieldRecord['candidates']>();
  const results = extractFields(layer, {
    fields: definitions,
    calibration: CALIBRATION,
    // The finders' own order: what the model is fitted to improve on.
    ranker: false,
    collect: (field, candidates, features) =>
      collected.set(
        field.name,
        candidates.map((c, k) => ({
          value: c.value,
          features: features[k]!,
          ocr: c.tokens.some((t) => t.source === 'ocr'),
          broad: c.source === 'broad',
        })),
      ),
  });
  return results.map((r) => {
    const definition = definitions.find((d) => d.name === r.name)!;
    return {
      name: r.name,
      group: groupOf(definition),
      candidates: collected.get(r.name) ?? [],
      hand: {
        value: typeof r.value === 'string' ? r.value : null,
        key: r.calibration?.key ?? null,
        evidence: r.calibration?.evidence ?? 0,
      },
    };
  });
}
