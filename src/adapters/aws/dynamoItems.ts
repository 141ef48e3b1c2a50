import { deflateRawSync, inflateRawSync } from 'node:zlib';
import * as z from 'zod/mini';
import { parseState } from '../../dialogue/index.js';
import { RECENT_JOBS } from '../../runtime/jobs.js';
import { Outbox, SequencedEvent } from '../../runtime/outbox.js';
import type { AgentRunRecord, ConversationHead } from '../../runtime/ports.js';
import { StoredDataError } from './storeErrors.js';

/**
 * How an item's large JSON attributes are stored. DynamoDB counts write units by the kilobyte
 * and a head is written by every job, so they are kept deflated (`node:zlib`, raw DEFLATE) as
 * binary attributes, and the item says so with `packing: 1`. Items written before, with the
 * JSON as text and no `packing`, stay readable; a `packing` this code does not know is refused.
 */
const PACKING = 1;
const Packing = z.lazy(() => z.optional(z.literal(PACKING)));
/** A JSON attribute: text in items written before packing, deflated bytes since. */
const JsonAttribute = z.lazy(() => z.union([z.string(), z.instanceof(Uint8Array)]));

/** The attribute that stores `value` as JSON, deflated. */
function packed(value: unknown): Uint8Array {
  return deflateRawSync(JSON.stringify(value));
}

/** The JSON an attribute holds, whether packed or text. */
function unpacked(stored: string | Uint8Array, packing: number | undefined): unknown {
  if (typeof stored === 'string') return JSON.parse(stored);
  if (packing !== PACKING) throw new Error('a binary attribute in an item without packing');
  return JSON.parse(inflateRawSync(stored).toString('utf8'));
}

const HeadItem = z.lazy(() =>
  z.object({
    packing: Packing,
    version: z.int().check(z.minimum(1)),
    state: JsonAttribute,
    outbox: z.optional(JsonAttribute),
    recent_jobs: z.array(z.string()),
    next_seq: z.int().check(z.nonnegative()),
    runs: z.record(z.string(), z.string()),
    // Heads written before the channel was kept all came from the REST channel, the only one then.
    channel: z._default(z.string(), 'rest'),
  }),
);

const RunItem = z.lazy(() =>
  z.object({
    packing: Packing,
    run_id: z.string(),
    job_id: z.string(),
    agent_id: z.string(),
    data: JsonAttribute,
  }),
);
const EventsItem = z.lazy(() => z.object({ packing: Packing, events: JsonAttribute }));
const StoredEvents = z.lazy(() => z.array(SequencedEvent));

/** The head's attributes, without keys and ttl. */
export function headAttributes(head: ConversationHead): Record<string, unknown> {
  return {
    packing: PACKING,
    version: head.version,
    state: packed(head.state),
    ...(head.outbox === undefined ? {} : { outbox: packed(head.outbox) }),
    recent_jobs: head.recentJobs.slice(-RECENT_JOBS),
    next_seq: head.nextSeq,
    runs: { ...head.runs },
    channel: head.channel,
  };
}

/** Parses a stored head; anything invalid is a `StoredDataError` naming the conversation. */
export function parseHead(conversationId: string, item: unknown): ConversationHead {
  return parseItem(conversationId, 'head', () => {
    const stored = HeadItem.parse(item);
    return {
      version: stored.version,
      state: parseState(unpacked(stored.state, stored.packing)),
      outbox:
        stored.outbox === undefined
          ? undefined
          : Outbox.parse(unpacked(stored.outbox, stored.packing)),
      recentJobs: stored.recent_jobs,
      nextSeq: stored.next_seq,
      runs: stored.runs,
      channel: stored.channel,
    };
  });
}

export function runAttributes(run: AgentRunRecord): Record<string, unknown> {
  return {
    packing: PACKING,
    run_id: run.runId,
    job_id: run.jobId,
    agent_id: run.agentId,
    data: packed(run.data),
  };
}

export function parseRun(conversationId: string, sortKey: string, item: unknown): AgentRunRecord {
  return parseItem(conversationId, sortKey, () => {
    const stored = RunItem.parse(item);
    return {
      runId: stored.run_id,
      jobId: stored.job_id,
      agentId: stored.agent_id,
      data: unpacked(stored.data, stored.packing),
    };
  });
}

export function parseEvents(
  conversationId: string,
  sortKey: string,
  item: unknown,
): SequencedEvent[] {
  return parseItem(conversationId, sortKey, () => {
    const stored = EventsItem.parse(item);
    return StoredEvents.parse(unpacked(stored.events, stored.packing));
  });
}

/** The attributes of an item of events. */
export function eventsAttributes(events: readonly SequencedEvent[]): Record<string, unknown> {
  return { packing: PACKING, events: packed(events) };
}

function parseItem<T>(conversationId: string, sortKey: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new StoredDataError(conversationId, sortKey, { cause: error });
  }
}
