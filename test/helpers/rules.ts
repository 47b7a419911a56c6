import type { RulesRecord } from '../../src/conditions/types.js';

/** A v2 rules record with one check: an invoice total above 100 opens a task on `fieldIds`. */
export function totalAbove100(note: string, fieldIds: string[]): RulesRecord {
  return {
    data: {
      checks: [
        {
          condition: {
            type: 'greater-than',
            values: ["$.predictions['svc.invoice.total'].value_norm", 100],
            compare_as: 'numeric',
          },
          note,
          field_ids: fieldIds,
        },
      ],
    },
    schema: true,
  };
}
