import type { ConversationHead, ConversationStore } from '../../src/runtime/index.js';

/** A store whose first loads wait for each other, so that concurrent jobs read the same head. */
export interface RacingStore {
  readonly store: ConversationStore;
  /** The versions the held-back loads read, in the order they were released. */
  readonly loadedVersions: number[];
  /** How each commit went: `committed`, or the name of the error it threw. */
  readonly commits: string[];
}

/**
 * Wraps `inner` so that its first `parties` loads are held until all of them have arrived (and
 * fail after `timeoutMs` if they do not, so a race that never happens fails the test); later
 * loads and every other call go straight through.
 */
export function racingStore(
  inner: ConversationStore,
  parties: number,
  timeoutMs = 10_000,
): RacingStore {
  const loadedVersions: number[] = [];
  const commits: string[] = [];
  const waiting: (() => void)[] = [];
  let started = 0;
  const barrier = () =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`only ${waiting.length} of ${parties} loads arrived together`)),
        timeoutMs,
      );
      waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
      if (waiting.length === parties) for (const release of waiting.splice(0)) release();
    });
  const store: ConversationStore = {
    async load(conversationId) {
      const held = started < parties;
      started += 1;
      const head: ConversationHead | undefined = await inner.load(conversationId);
      if (held) {
        await barrier();
        loadedVersions.push(head?.version ?? 0);
      }
      return head;
    },
    async commit(request) {
      try {
        await inner.commit(request);
        commits.push('committed');
      } catch (error) {
        commits.push(error instanceof Error ? error.name : String(error));
        throw error;
      }
    },
    appendEvents: (...args) => inner.appendEvents(...args),
    clearOutbox: (...args) => inner.clearOutbox(...args),
    loadRun: (...args) => inner.loadRun(...args),
    readEvents: (...args) => inner.readEvents(...args),
    readEventPage: (...args) => inner.readEventPage(...args),
  };
  return { store, loadedVersions, commits };
}
