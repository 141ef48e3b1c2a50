import * as z from 'zod/mini';
import { SwitchboardError } from '../resilience/index.js';
import { type DialogueEvent, DialogueEvent as DialogueEventSchema } from './events.js';
import { Frame } from './frames.js';

/** The version of the persisted state written by this code. */
export const STATE_VERSION = 1;
/** Messages kept for prompts and transcripts; older ones stay in the event log only. */
export const HISTORY_LIMIT = 40;
/** Events kept for sub agents' context. */
export const RECENT_EVENTS_LIMIT = 50;
/** Bot events kept for "repeat message". */
export const LAST_BOT_EVENTS_LIMIT = 10;
/**
 * Characters of a message kept in the windows above (the event log keeps it whole). Together
 * with the limits this keeps the state far below the 400 KB of one DynamoDB item.
 */
export const WINDOW_TEXT_LIMIT = 1000;
/** Characters of a bot message kept for "repeat message". */
export const REPEAT_TEXT_LIMIT = 4000;

export const HistoryEntry = z.lazy(() =>
  z.object({ role: z.enum(['user', 'bot']), text: z.string() }),
);
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/**
 * The latest user message: its position among the conversation's events (0 for the first, the
 * event log's sequence number) and when it came, in seconds since the epoch.
 */
export const LatestMessage = z.lazy(() =>
  z.object({
    index: z.int().check(z.nonnegative()),
    timestamp: z.number(),
  }),
);
export type LatestMessage = z.infer<typeof LatestMessage>;

/**
 * The sub agents of the current session, as Rasa's command-generator prompts read them from its
 * events: each agent a flow started (in the order they started) and the agents that completed,
 * the latest first.
 */
export const SessionAgents = z.lazy(() =>
  z.object({
    started: z.array(z.object({ agent_id: z.string(), flow_id: z.string() })),
    completed: z.array(z.string()),
  }),
);
export type SessionAgents = z.infer<typeof SessionAgents>;

/**
 * A conversation: the fold of its events. Only bounded windows of history are kept, so the state
 * (and the cost of a turn) stays the same size however long the conversation runs.
 */
export const ConversationState = z.lazy(() =>
  z.object({
    version: z.literal(STATE_VERSION),
    sender_id: z.string(),
    slots: z.record(z.string(), z.unknown()),
    stack: z.array(Frame),
    /** Frames created so far; frame ids are `f<n>`. */
    frame_seq: z.int().check(z.nonnegative()),
    history: z.array(HistoryEntry),
    /** Bot events since the latest user message, for "repeat message". */
    last_bot_events: z.array(DialogueEventSchema),
    recent_events: z.array(DialogueEventSchema),
    event_count: z.int().check(z.nonnegative()),
    /** Set once `action_session_start` ran; absent in conversations older than sessions. */
    session_started: z.optional(z.boolean()),
    /**
     * Absent until the user writes, and in states written before it was kept: those find the
     * latest message in their recent events (`latestMessageTime`).
     */
    latest_message: z.optional(LatestMessage),
    /** When the latest event happened (seconds since the epoch); absent likewise. */
    latest_event_time: z.optional(z.number()),
    /** Absent until a sub agent starts in the session. */
    agents: z.optional(SessionAgents),
  }),
);
export type ConversationState = z.infer<typeof ConversationState>;

/** A persisted state of a version this code does not read. Code `STATE_VERSION_UNSUPPORTED`. */
export class UnsupportedStateVersionError extends SwitchboardError {
  override readonly name = 'UnsupportedStateVersionError';
  override readonly code = 'STATE_VERSION_UNSUPPORTED';
  constructor(readonly found: unknown) {
    super(
      `conversation state version ${String(found)} is not supported (this build reads version ${STATE_VERSION})`,
    );
  }
}

/** Parses persisted state, refusing unknown versions with a clear error. */
export function parseState(data: unknown): ConversationState {
  const version = (data as { version?: unknown } | null)?.version;
  if (version !== STATE_VERSION) throw new UnsupportedStateVersionError(version);
  return ConversationState.parse(data);
}

/** A new conversation with the slots' initial values. */
export function initialState(
  senderId: string,
  initialSlots: Readonly<Record<string, unknown>>,
): ConversationState {
  return {
    version: STATE_VERSION,
    sender_id: senderId,
    slots: { ...initialSlots },
    stack: [],
    frame_seq: 0,
    history: [],
    last_bot_events: [],
    recent_events: [],
    event_count: 0,
  };
}

/** Applies one event; the state is never mutated. */
export function applyEvent(state: ConversationState, event: DialogueEvent): ConversationState {
  const next: ConversationState = {
    ...state,
    event_count: state.event_count + 1,
    latest_event_time: event.timestamp,
    // Stack changes stay out of the window: the state holds the current stack.
    recent_events:
      event.event === 'stack'
        ? state.recent_events
        : bounded([...state.recent_events, compact(event)], RECENT_EVENTS_LIMIT),
  };
  switch (event.event) {
    case 'user':
      next.history = bounded(
        [...state.history, { role: 'user', text: clip(event.text) }],
        HISTORY_LIMIT,
      );
      next.last_bot_events = [];
      next.latest_message = { index: state.event_count, timestamp: event.timestamp };
      return next;
    case 'bot':
      if (event.text !== undefined) {
        next.history = bounded(
          [...state.history, { role: 'bot', text: clip(event.text) }],
          HISTORY_LIMIT,
        );
      }
      next.last_bot_events = bounded(
        [
          ...state.last_bot_events,
          event.text === undefined
            ? event
            : { ...event, text: clip(event.text, REPEAT_TEXT_LIMIT) },
        ],
        LAST_BOT_EVENTS_LIMIT,
      );
      return next;
    case 'slot':
      next.slots = { ...state.slots, [event.name]: event.value };
      return next;
    case 'stack':
      next.stack = event.stack;
      next.frame_seq = Math.max(state.frame_seq, maxFrameSeq(event.stack));
      return next;
    case 'session_started':
      // A new session starts afresh, as Rasa's does: nothing said before it is repeated or
      // shown to the models. The slots change by their own events.
      next.session_started = true;
      next.history = [];
      next.last_bot_events = [];
      delete next.agents;
      return next;
    case 'agent_started':
    case 'agent_completed':
      next.agents = recordAgent(state.agents, event);
      return next;
    case 'action':
    case 'flow_started':
    case 'flow_completed':
    case 'flow_interrupted':
    case 'flow_resumed':
    case 'flow_cancelled':
    case 'agent_interrupted':
    case 'agent_resumed':
    case 'agent_cancelled':
      return next;
    default:
      return assertNever(event);
  }
}

/**
 * When the user last wrote (seconds since the epoch), if ever. A state written before
 * `latest_message` was kept finds its latest message among its recent events.
 */
export function latestMessageTime(state: ConversationState): number | undefined {
  return (
    state.latest_message?.timestamp ??
    state.recent_events.findLast((event) => event.event === 'user')?.timestamp
  );
}

/** Folds events into a state: how a conversation is rebuilt from its log. */
export function replay(
  state: ConversationState,
  events: readonly DialogueEvent[],
): ConversationState {
  return events.reduce(applyEvent, state);
}

/** Adds an agent's start (once per agent and flow) or completion (moved to the front). */
function recordAgent(
  agents: SessionAgents | undefined,
  event: { event: 'agent_started' | 'agent_completed'; agent_id: string; flow_id: string },
): SessionAgents {
  const { started = [], completed = [] } = agents ?? {};
  const { agent_id, flow_id } = event;
  if (event.event === 'agent_completed') {
    return { started, completed: [agent_id, ...completed.filter((id) => id !== agent_id)] };
  }
  const known = started.some((s) => s.agent_id === agent_id && s.flow_id === flow_id);
  return { started: known ? started : [...started, { agent_id, flow_id }], completed };
}

function maxFrameSeq(stack: readonly Frame[]): number {
  let max = 0;
  for (const frame of stack) {
    const n = Number(frame.frame_id.slice(1));
    if (Number.isFinite(n) && n > max) max = n;
  }
  return max;
}

/**
 * An event as the recent window keeps it: texts clipped, and a user message's metadata (which a
 * channel may fill with anything) left to the log.
 */
function compact(event: DialogueEvent): DialogueEvent {
  switch (event.event) {
    case 'user': {
      const { metadata: _metadata, ...rest } = event;
      return { ...rest, text: clip(event.text) };
    }
    case 'bot':
      return event.text === undefined ? event : { ...event, text: clip(event.text) };
    default:
      return event;
  }
}

function clip(text: string, limit = WINDOW_TEXT_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

function bounded<T>(list: T[], limit: number): T[] {
  return list.length > limit ? list.slice(list.length - limit) : list;
}

function assertNever(value: never): never {
  throw new Error(`unknown event ${JSON.stringify(value)}`);
}
