/** Partition key of a conversation's items. */
export const conversationKey = (conversationId: string): string => `conv#${conversationId}`;

/** Sort key of the head: the commit point of a conversation. */
export const HEAD_KEY = 'head';

/** Sort key of one committed version's events. */
export const eventKey = (version: number): string => `evt#${padVersion(version)}`;

/** Sort key of an agent run record written by one job. */
export const runKey = (runId: string, jobId: string): string => `run#${runId}#${jobId}`;

/** Sort key of the replies one version committed for a turn. */
export const replyKey = (turnId: string, version: number): string =>
  `${replyPrefix(turnId)}${padVersion(version)}`;

export const replyPrefix = (turnId: string): string => `reply#${turnId}#`;

/** Zero-padded so that sort keys order as numbers. */
export function padVersion(version: number): string {
  if (!Number.isSafeInteger(version) || version < 0) {
    throw new RangeError(`version ${version} is not a non-negative integer`);
  }
  return String(version).padStart(12, '0');
}

/** The `ttl` attribute (epoch seconds) of an item written at `nowMs`. */
export const expiryOf = (nowMs: number, ttlSeconds: number): number =>
  Math.floor(nowMs / 1000) + ttlSeconds;

/** DynamoDB deletes expired items only eventually (dynalite never): reads skip them. */
export function isExpired(item: Record<string, unknown>, nowMs: number): boolean {
  const ttl = item.ttl;
  return typeof ttl === 'number' && ttl <= Math.floor(nowMs / 1000);
}
