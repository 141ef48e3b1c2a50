/** Counts a store's requests and approximate item bytes (JSON size), for benchmarks. */
export interface StoreMeter {
  reads: number;
  writes: number;
  bytesWritten: number;
  bytesRead: number;
}

/** Approximate size of an item as DynamoDB bills it: close enough to compare jobs. */
export const itemBytes = (item: Record<string, unknown>): number =>
  Buffer.byteLength(JSON.stringify(item));
