import * as z from 'zod/mini';
import { parseState } from '../../dialogue/index.js';
import { RECENT_JOBS } from '../../runtime/jobs.js';
import { Outbox, SequencedEvent } from '../../runtime/outbox.js';
import type { AgentRunRecord, ConversationHead } from '../../runtime/ports.js';
import { StoredDataError } from './storeErrors.js';

const HeadItem = z.object({
  version: z.int().check(z.minimum(1)),
  state: z.string(),
  outbox: z.optional(z.string()),
  recent_jobs: z.array(z.string()),
  next_seq: z.int().check(z.nonnegative()),
  runs: z.record(z.string(), z.string()),
  // Heads written before the channel was kept all came from the REST channel, the only one then.
  channel: z._default(z.string(), 'rest'),
});

const RunItem = z.object({
  run_id: z.string(),
  job_id: z.string(),
  agent_id: z.string(),
  data: z.string(),
});
const EventsItem = z.object({ events: z.string() });
const StoredEvents = z.array(SequencedEvent);

/** The head's attributes, without keys and ttl. */
export function headAttributes(head: ConversationHead): Record<string, unknown> {
  return {
    version: head.version,
    state: JSON.stringify(head.state),
    ...(head.outbox === undefined ? {} : { outbox: JSON.stringify(head.outbox) }),
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
      state: parseState(JSON.parse(stored.state)),
      outbox: stored.outbox === undefined ? undefined : Outbox.parse(JSON.parse(stored.outbox)),
      recentJobs: stored.recent_jobs,
      nextSeq: stored.next_seq,
      runs: stored.runs,
      channel: stored.channel,
    };
  });
}

export function runAttributes(run: AgentRunRecord): Record<string, unknown> {
  return {
    run_id: run.runId,
    job_id: run.jobId,
    agent_id: run.agentId,
    data: JSON.stringify(run.data),
  };
}

export function parseRun(conversationId: string, sortKey: string, item: unknown): AgentRunRecord {
  return parseItem(conversationId, sortKey, () => {
    const stored = RunItem.parse(item);
    return {
      runId: stored.run_id,
      jobId: stored.job_id,
      agentId: stored.agent_id,
      data: JSON.parse(stored.data),
    };
  });
}

export function parseEvents(
  conversationId: string,
  sortKey: string,
  item: unknown,
): SequencedEvent[] {
  return parseItem(conversationId, sortKey, () =>
    StoredEvents.parse(JSON.parse(EventsItem.parse(item).events)),
  );
}

function parseItem<T>(conversationId: string, sortKey: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new StoredDataError(conversationId, sortKey, { cause: error });
  }
}
