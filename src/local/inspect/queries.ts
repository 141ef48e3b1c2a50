/**
 * The inspector's read-only view of the local stack's store: list the conversations, read one
 * (its tracker and every agent run it had), and follow one (each new version as it commits).
 * It writes nothing. A run's steps come from the step journal, which also holds the data of a
 * run's last step (which writes no record).
 */
import { type DynamoDBDocumentClient, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { parseRun } from '../../adapters/aws/dynamoItems.js';
import { conversationKey } from '../../adapters/aws/dynamoKeys.js';
import { scanConversationIds } from '../../adapters/aws/scanConversations.js';
import { readTracker, type TrackerView } from '../../channels/index.js';
import type { AgentRunRecord, ConversationStore } from '../../runtime/index.js';
import type { JournalRun, StepEntry, StepJournal } from './journal.js';

export interface ConversationSummary {
  readonly id: string;
  readonly version: number;
  readonly channel: string;
  /** When the latest user message came, in seconds since the epoch. */
  readonly latestMessageAt: number | undefined;
}

/**
 * An agent run of a conversation: its latest record (or, when the journal saw a later step, the
 * record with the runner's data after that step), whether it still runs, and its steps as the
 * journal saw them.
 */
export interface RunView extends AgentRunRecord {
  readonly active: boolean;
  readonly steps: readonly StepEntry[];
}

export interface ConversationView {
  readonly id: string;
  readonly version: number;
  readonly tracker: TrackerView;
  readonly runs: readonly RunView[];
}

export interface ConversationQueries {
  list(): Promise<ConversationSummary[]>;
  /** A conversation (empty, at version 0, when no message has reached it yet). */
  read(id: string): Promise<ConversationView>;
  /** A run's latest record. */
  run(id: string, runId: string): Promise<RunView | undefined>;
  /** The conversation's version, then each new one, until `signal` aborts. */
  follow(id: string, signal: AbortSignal): AsyncIterable<number>;
}

export interface StoreQueriesOptions {
  readonly store: ConversationStore;
  readonly documents: DynamoDBDocumentClient;
  readonly tableName: string;
  readonly sleep: (ms: number) => Promise<void>;
  /** The steps this process ran (none known without it). */
  readonly journal?: StepJournal;
}

/** How often `follow` looks at a conversation's version. */
const FOLLOW_EVERY_MS = 250;

export function storeQueries(options: StoreQueriesOptions): ConversationQueries {
  const { store } = options;
  const runsOf = async (id: string): Promise<RunView[]> => {
    const head = await store.load(id);
    const latest = new Map<string, { record: AgentRunRecord; rank: number[] }>();
    const pages = paginateQuery(
      { client: options.documents },
      {
        TableName: options.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :run)',
        ExpressionAttributeValues: { ':pk': conversationKey(id), ':run': 'run#' },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        const record = parseRun(id, String(item.sk), item);
        // Each job of a run writes a record of its own. An active run's is the one its head
        // names; a finished run's, the one that had gone furthest (expiries do not tell: a
        // commit renews those of the records it keeps).
        const rank =
          head?.runs[record.runId] === record.jobId
            ? [Number.POSITIVE_INFINITY]
            : progress(record.data);
        const known = latest.get(record.runId);
        if (!known || compare(rank, known.rank) >= 0) latest.set(record.runId, { record, rank });
      }
    }
    const journal = options.journal?.runs(id) ?? new Map<string, JournalRun>();
    const views = [...latest.values()].map(({ record }) =>
      withSteps(record, journal.get(record.runId), head?.runs[record.runId] !== undefined),
    );
    // A run the journal saw whose records are gone: what the journal holds of it.
    for (const run of journal.values()) {
      if (latest.has(run.runId)) continue;
      const record = { runId: run.runId, jobId: '', agentId: run.agentId, data: { failures: 0 } };
      views.push(withSteps(record, run, head?.runs[run.runId] !== undefined));
    }
    return views;
  };
  return {
    list: async () => {
      const ids = await scanConversationIds(options.documents, options.tableName);
      const summaries = await Promise.all(
        ids.map(async (id): Promise<ConversationSummary | undefined> => {
          const head = await store.load(id);
          if (!head) return undefined;
          return {
            id,
            version: head.version,
            channel: head.channel,
            latestMessageAt: head.state.latest_message?.timestamp,
          };
        }),
      );
      return summaries
        .filter((s): s is ConversationSummary => s !== undefined)
        .sort((a, b) => (b.latestMessageAt ?? 0) - (a.latestMessageAt ?? 0));
    },
    read: async (id) => {
      const head = await store.load(id);
      const [tracker, runs] = await Promise.all([readTracker(store, id), runsOf(id)]);
      // A conversation no message has reached yet is an empty one, as Rasa's tracker has it.
      return { id, version: head?.version ?? 0, tracker, runs };
    },
    run: async (id, runId) => (await runsOf(id)).find((run) => run.runId === runId),
    follow: (id, signal) => ({
      async *[Symbol.asyncIterator]() {
        let seen = -1;
        while (!signal.aborted) {
          const version = (await store.load(id))?.version ?? 0;
          if (version !== seen) {
            seen = version;
            yield version;
          }
          await options.sleep(FOLLOW_EVERY_MS);
        }
      },
    }),
  };
}

/** A run's view: its record, made newer by the journal's data of a later step. */
export function withSteps(
  record: AgentRunRecord,
  run: JournalRun | undefined,
  active: boolean,
): RunView {
  if (!run) return { ...record, active, steps: [] };
  const stored = (record.data ?? {}) as { steps?: unknown };
  const recorded = typeof stored.steps === 'number' ? stored.steps : 0;
  // A record written after step n counts n + 1 steps.
  if (run.step < recorded) return { ...record, active, steps: run.steps };
  const data = { ...stored, runner: run.runner, steps: run.step + 1, failures: failuresAtEnd(run) };
  return { ...record, data, active, steps: run.steps };
}

/** The failed steps in a row at the end of a run's steps (none once a step went well). */
function failuresAtEnd(run: JournalRun): number {
  let failures = 0;
  for (const step of [...run.steps].reverse()) {
    if (step.outcome !== 'retrying' && step.outcome !== 'failed') break;
    failures += 1;
  }
  return failures;
}

/** How far a run had gone when its record was written: its steps, then its size. */
function progress(data: unknown): number[] {
  const steps = (data as { steps?: unknown } | null)?.steps;
  return [typeof steps === 'number' ? steps : 0, JSON.stringify(data ?? null).length];
}

/** Compares ranks element by element. */
function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
