import { $ZodError, prettifyError } from 'zod/v4/core';
import { SwitchboardError } from '../../resilience/index.js';

/**
 * A stored item could not be read back: corrupt, or written by an incompatible version.
 * Code `STORED_DATA_INVALID`.
 */
export class StoredDataError extends SwitchboardError {
  override readonly name = 'StoredDataError';
  override readonly code = 'STORED_DATA_INVALID';
  constructor(
    readonly conversationId: string,
    readonly sortKey: string,
    options?: { cause?: unknown },
  ) {
    super(
      `stored item ${sortKey} of conversation ${conversationId} is invalid: ${describe(options?.cause)}`,
      options,
    );
  }
}

function describe(cause: unknown): string {
  // JSON.parse quotes the text it failed on: never echo stored data.
  if (cause instanceof SyntaxError) return 'not JSON';
  // Errors of zod's full build and of its small one alike.
  if (cause instanceof $ZodError) return prettifyError(cause).replaceAll('\n', '; ');
  if (cause instanceof Error) return cause.message;
  return String(cause);
}
