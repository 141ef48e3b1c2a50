/**
 * Expiry of the items a head points to, kept lazily so that a commit's cost stays constant.
 *
 * The head expires `ttl` after its last commit. Event items are written (and refreshed) with a
 * lead of one more `ttl`, so they outlive the head for a while without being touched. The head
 * keeps a floor: a lower bound of every event item's expiry. When a commit's new head expiry
 * comes within half the lead of that floor, a refresh pass starts: it walks the event versions
 * below the head downwards, `REFRESH_BATCH` of them per commit (`UpdateItem SET ttl`, before the
 * head is written), and when it reaches the first version the floor rises to what the pass gave.
 * Run records the head points to are few (active runs only): each commit refreshes those that
 * would expire before the new head. A pass keeps up while a conversation commits at least
 * versions / `REFRESH_BATCH` times per half lead; a burst of many versions followed by a long
 * silence can outrun it, and reads then skip the oldest events that expired.
 */
import * as z from 'zod/mini';

/** Event items a commit refreshes at most. */
export const REFRESH_BATCH = 10;

/** What the head records about the expiry of its items (attributes of the head item). */
export interface ExpiryBook {
  /** When the conversation's first version was committed (ms since the epoch); 0 if unknown. */
  readonly born: number;
  /** No event item the running pass has not reached expires before this (epoch seconds). */
  readonly floor: number;
  /** The next event version the running pass refreshes, counting down; 0 when none runs. */
  readonly cursor: number;
  /** The expiry the running pass gives, and that items written since it started have. */
  readonly passTtl: number;
  /** Expiry of each pointed-to run record, by `run id#job id`. */
  readonly runTtls: Readonly<Record<string, number>>;
}

// Heads stored before the book existed parse to a floor of 0: their first commit starts a pass.
const BookItem = z.lazy(() =>
  z.object({
    born: z._default(z.number(), 0),
    evt_floor: z._default(z.number(), 0),
    evt_cursor: z._default(z.int().check(z.nonnegative()), 0),
    evt_pass_ttl: z._default(z.number(), 0),
    run_ttls: z._default(z.record(z.string(), z.number()), {}),
  }),
);

/** The book of a stored head item; missing attributes take the defaults of older heads. */
export function parseBook(item: unknown): ExpiryBook {
  const stored = BookItem.parse(item);
  return {
    born: stored.born,
    floor: stored.evt_floor,
    cursor: stored.evt_cursor,
    passTtl: stored.evt_pass_ttl,
    runTtls: stored.run_ttls,
  };
}

export function bookAttributes(book: ExpiryBook): Record<string, unknown> {
  return {
    born: book.born,
    evt_floor: book.floor,
    evt_cursor: book.cursor,
    evt_pass_ttl: book.passTtl,
    run_ttls: { ...book.runTtls },
  };
}

/** The expiries a store writes at one instant. */
export interface Expiries {
  /** The head's, and that of the run records it points to. */
  readonly head: number;
  /** Event items': the head's plus a lead of one more ttl. */
  readonly events: number;
}

export function expiriesAt(nowMs: number, ttlSeconds: number): Expiries {
  const head = Math.floor(nowMs / 1000) + ttlSeconds;
  return { head, events: head + ttlSeconds };
}

/** The refreshes one commit makes before it writes the head, and the head's new book. */
export interface RefreshPlan {
  readonly eventVersions: readonly number[];
  /** Run id → job id of pointed-to records to refresh to the head's expiry. */
  readonly runs: Readonly<Record<string, string>>;
  readonly book: ExpiryBook;
}

export interface CommitExpiry {
  /** The book of the head the commit replaces; undefined for a new conversation. */
  readonly previous: ExpiryBook | undefined;
  readonly nowMs: number;
  readonly ttlSeconds: number;
  readonly version: number;
  /** The new head's run pointers. */
  readonly runs: Readonly<Record<string, string>>;
  /** Keys (`run id#job id`) of the run records this commit writes. */
  readonly written: ReadonlySet<string>;
}

/** Plans a commit's refreshes (see the module's header). */
export function planRefresh(commit: CommitExpiry): RefreshPlan {
  const { nowMs, ttlSeconds, version } = commit;
  const expiry = expiriesAt(nowMs, ttlSeconds);
  const previous = commit.previous ?? {
    born: nowMs,
    // Every event item of a new conversation is written from now on, with at least this expiry.
    floor: expiry.events,
    cursor: 0,
    passTtl: 0,
    runTtls: {},
  };
  let { floor, cursor, passTtl } = previous;
  if (cursor === 0 && version > 1 && floor < expiry.head + ttlSeconds / 2) {
    // Items at the new version and above are written after now, so the pass ends below it.
    cursor = version - 1;
    passTtl = expiry.events;
  }
  const eventVersions: number[] = [];
  while (cursor > 0 && eventVersions.length < REFRESH_BATCH) {
    eventVersions.push(cursor);
    cursor -= 1;
  }
  if (eventVersions.length > 0 && cursor === 0) floor = passTtl;

  const runs: Record<string, string> = {};
  const runTtls: Record<string, number> = {};
  for (const [runId, jobId] of Object.entries(commit.runs)) {
    const key = `${runId}#${jobId}`;
    const current = commit.written.has(key) ? expiry.head : previous.runTtls[key];
    if (current === undefined || current < expiry.head) runs[runId] = jobId;
    runTtls[key] = Math.max(current ?? 0, expiry.head);
  }
  return { eventVersions, runs, book: { born: previous.born, floor, cursor, passTtl, runTtls } };
}
