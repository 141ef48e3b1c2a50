/**
 * Run records: what a durable agent run keeps between its steps, versioned and parsed on every
 * load. The runtime's part (sequencing, retries, the run's turn and channel) has its schema
 * here; the runner's own part is parsed with the schema its `AgentRunner` declares.
 */
import * as z from 'zod/mini';
import { SwitchboardError } from '../resilience/index.js';
import type { AgentRunner } from './agentRunner.js';
import type { AgentRunRecord, ConversationStore } from './ports.js';

/** The version of run records this build writes. */
export const RUN_RECORD_VERSION = 1;

/**
 * The runtime's part of a run record: where the run stands between its steps. The runner's own
 * data sits in `runner`, parsed with the runner's schema (see `parseRunnerData`).
 */
export const RunState = z.lazy(() =>
  z.object({
    // Records of the first build carry no version; they have exactly this shape.
    version: z._default(z.literal(RUN_RECORD_VERSION), RUN_RECORD_VERSION),
    runner: z.unknown(),
    /** Consecutive failed steps, for the retry policy. */
    failures: z.int().check(z.nonnegative()),
    /** The agent frame the run works for. */
    frameId: z.string(),
    /** Steps run so far; the step job numbered `steps` is the only one that may run next. */
    steps: z.int().check(z.nonnegative()),
    /** The channel of the conversation, for the run's messages. */
    channel: z.string(),
    /** The turn that started the run: its replies, and its end, belong to that turn. */
    turnId: z.string(),
    /** When the next step may run (ms since the epoch), if it was delayed. */
    notBefore: z.optional(z.number()),
    /** A pushed update whose step failed: the retry takes it again. */
    pendingUpdate: z.optional(z.unknown()),
    /** Whether the run has sent its filler message: it sends one at most. */
    saidFiller: z.optional(z.boolean()),
  }),
);
export type RunState = z.infer<typeof RunState>;

/**
 * A run record that this build cannot read: an unknown version, or data of the wrong shape.
 * Code `RUN_RECORD_UNREADABLE`.
 */
export class RunRecordError extends SwitchboardError {
  override readonly name = 'RunRecordError';
  override readonly code = 'RUN_RECORD_UNREADABLE';
  constructor(
    readonly runId: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`the record of run ${runId} cannot be read: ${reason}`, options);
  }
}

/** Parses the runtime's part of a stored run record; refuses unknown versions. */
export function parseRunState(record: AgentRunRecord): RunState {
  const version = (record.data as { version?: unknown } | null)?.version;
  if (version !== undefined && version !== RUN_RECORD_VERSION) {
    throw new RunRecordError(
      record.runId,
      `version ${String(version)} is not supported (this build reads version ${RUN_RECORD_VERSION})`,
    );
  }
  const parsed = RunState.safeParse(record.data);
  if (!parsed.success) {
    throw new RunRecordError(record.runId, z.prettifyError(parsed.error).replaceAll('\n', '; '), {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** Parses the runner's own data of a run with the runner's schema. */
export function parseRunnerData<T>(runId: string, runner: AgentRunner<T>, data: unknown): T {
  const parsed = z.safeParse(runner.dataSchema, data);
  if (parsed.success) return parsed.data;
  throw new RunRecordError(
    runId,
    `the runner's data does not fit its schema: ${z.prettifyError(parsed.error).replaceAll('\n', '; ')}`,
    { cause: parsed.error },
  );
}

/** The run's state as its current record holds it, or undefined when the record is gone. */
export async function loadRunState(
  store: ConversationStore,
  conversationId: string,
  runId: string,
  pointer: string,
): Promise<RunState | undefined> {
  const record = await store.loadRun(conversationId, runId, pointer);
  return record ? parseRunState(record) : undefined;
}
