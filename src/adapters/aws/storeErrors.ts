import { z } from 'zod';

/** A stored item could not be read back: corrupt, or written by an incompatible version. */
export class StoredDataError extends Error {
  override readonly name = 'StoredDataError';
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
  if (cause instanceof z.ZodError) return z.prettifyError(cause).replaceAll('\n', '; ');
  if (cause instanceof Error) return cause.message;
  return String(cause);
}
