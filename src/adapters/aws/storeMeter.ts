/** Counts a store's requests and approximate item bytes (JSON size), for benchmarks. */
export interface StoreMeter {
  reads: number;
  writes: number;
  bytesWritten: number;
  bytesRead: number;
}

/** Approximate size of an item as DynamoDB bills it: close enough to compare jobs. */
export const itemBytes = (item: Record<string, unknown>): number =>
  Buffer.byteLength(JSON.stringify(item, binaryAsLength));

/** Binary attributes count by their bytes (JSON would spell each byte out). */
function binaryAsLength(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const original = this[key];
  return original instanceof Uint8Array ? '#'.repeat(original.byteLength) : value;
}
