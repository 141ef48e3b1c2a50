/** What a log line carries besides its message: names and values, never a credential's value. */
export type LogFields = Record<string, unknown>;

/**
 * Where Switchboard logs. Powertools' `Logger` is one as it is, so the Lambda handlers and the
 * local stack pass theirs straight in; tests pass an object that records the lines.
 */
export interface Logger {
  debug(message: string, fields: LogFields): void;
  info(message: string, fields: LogFields): void;
  warn(message: string, fields: LogFields): void;
  error(message: string, fields: LogFields): void;
}

/** An error as `Name: message`, for logs (never the data that caused it). */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
