import { DocexError } from '../core/errors.js';
import type { CompiledSchema, SchemaChecker } from '../core/schema-checker.js';
import type { WorkflowDefinition } from './types.js';

const WORKFLOW_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

interface Entry {
  definition: WorkflowDefinition;
  validate: CompiledSchema;
}

/** The workflows one engine can run, by id, with their compiled input schemas. */
export class WorkflowRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #checker: SchemaChecker;

  constructor(checker: SchemaChecker) {
    this.#checker = checker;
  }

  register(definition: WorkflowDefinition): void {
    if (typeof definition?.id !== 'string' || !WORKFLOW_ID.test(definition.id)) {
      throw new DocexError(
        'INVALID_DEFINITION',
        'A workflow id is 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit.',
      );
    }
    if (typeof definition.run !== 'function') {
      throw new DocexError('INVALID_DEFINITION', `Workflow ${definition.id} has no run function.`);
    }
    if (typeof definition.inputsSchema !== 'object' || definition.inputsSchema === null) {
      throw new DocexError('INVALID_DEFINITION', `Workflow ${definition.id} has no inputsSchema.`);
    }
    if (this.#entries.has(definition.id)) {
      throw new DocexError(
        'INVALID_DEFINITION',
        `A workflow with id ${definition.id} is already registered.`,
      );
    }
    const validate = this.#checker.compile(definition.inputsSchema);
    this.#entries.set(definition.id, { definition: { ...definition }, validate });
  }

  has(id: string): boolean {
    return this.#entries.has(id);
  }

  get(id: string): WorkflowDefinition {
    const entry = this.#entries.get(id);
    if (!entry) throw new DocexError('UNKNOWN_WORKFLOW', `No workflow with id ${String(id).slice(0, 128)}.`);
    return entry.definition;
  }

  ids(): string[] {
    return [...this.#entries.keys()];
  }

  /** Throws INVALID_INPUTS with every problem (paths under `/inputs`) when the inputs do not fit. */
  checkInputs(id: string, inputs: unknown): void {
    const entry = this.#entries.get(id);
    if (!entry) throw new DocexError('UNKNOWN_WORKFLOW', `No workflow with id ${String(id).slice(0, 128)}.`);
    this.#checker.assert(entry.validate, inputs, 'INVALID_INPUTS', `Inputs of ${id}:`, '/inputs');
  }
}
