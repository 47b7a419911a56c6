/**
 * Where docex writes what it does for an operator: JSON lines with a level, a message and fields.
 * The shape is pino's (`logger.info({ jobId }, 'job succeeded')`), so a pino logger is one; a host can
 * hand in its own. Never given secrets or document content.
 */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  /** A logger that adds `bindings` (request id, account, job id, file id) to every line. */
  child(bindings: Record<string, unknown>): Logger;
}

/** Writes nothing: the default of the library's parts. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
