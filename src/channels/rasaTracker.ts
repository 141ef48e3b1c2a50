import { parseData, rasaEvent, rasaFrame } from '../actionServer/index.js';
import {
  type ConversationState,
  type DialogueEvent,
  type Frame,
  latestMessageTime,
} from '../dialogue/index.js';

type UserEvent = Extract<DialogueEvent, { event: 'user' }>;

/** An event in Rasa's event JSON: Rasa's fields, then Switchboard's own that Rasa lacks. */
export type TrackerEvent = Readonly<Record<string, unknown>>;

/** A conversation as Rasa's `GET /conversations/{id}/tracker` shows it (`current_state`). */
export interface RasaTrackerState {
  readonly sender_id: string;
  readonly slots: Readonly<Record<string, unknown>>;
  /** The latest user message as Rasa's NLU would have parsed it. */
  readonly latest_message: Readonly<Record<string, unknown>>;
  readonly latest_event_time: number | null;
  readonly followup_action: null;
  readonly paused: false;
  /** The dialogue stack, frames as Rasa's stack holds them. */
  readonly stack: readonly TrackerEvent[];
  readonly events: readonly TrackerEvent[];
  readonly latest_input_channel: string | null;
  readonly active_loop: Readonly<Record<string, never>>;
  readonly latest_action: { readonly action_name: string } | Readonly<Record<string, never>>;
  readonly latest_action_name: string | null;
}

/** What a conversation's tracker is built from. */
export interface TrackerSource {
  readonly senderId: string;
  readonly state: ConversationState;
  /** The channel the user last wrote on. */
  readonly channel: string;
  /** The events to show. */
  readonly events: readonly DialogueEvent[];
  /** The latest user message, whole; absent when the user never wrote. */
  readonly latestMessage: UserEvent | undefined;
}

/** Rasa's parse data of a tracker without a user message (`UserUttered.empty()`). */
const NO_MESSAGE = {
  intent: {},
  entities: [],
  text: null,
  message_id: null,
  metadata: {},
} as const;

/** The tracker of a conversation that has no events yet. */
export function emptyTrackerState(senderId: string): RasaTrackerState {
  return {
    sender_id: senderId,
    slots: {},
    latest_message: NO_MESSAGE,
    latest_event_time: null,
    followup_action: null,
    paused: false,
    stack: [],
    events: [],
    latest_input_channel: null,
    active_loop: {},
    latest_action: {},
    latest_action_name: null,
  };
}

/**
 * Rasa's tracker of a conversation. Switchboard has no forms (`active_loop` is empty), never
 * pauses a conversation and schedules no follow-up action between turns.
 */
export function rasaTrackerState(source: TrackerSource): RasaTrackerState {
  const { state, latestMessage, channel } = source;
  const action = latestActionName(state);
  return {
    sender_id: source.senderId,
    slots: state.slots,
    latest_message: latestMessage ? userParseData(latestMessage) : NO_MESSAGE,
    latest_event_time: state.latest_event_time ?? state.recent_events.at(-1)?.timestamp ?? null,
    followup_action: null,
    paused: false,
    stack: state.stack.map(rasaFrame),
    events: source.events.map((event) => trackerEvent(event, channel)),
    latest_input_channel: latestMessage ? channel : null,
    active_loop: {},
    latest_action: action === null ? {} : { action_name: action },
    latest_action_name: action,
  };
}

/**
 * An event in Rasa's JSON, keeping the fields Switchboard adds (a bot message's buttons beside
 * Rasa's `data`, a stack event's frames beside Rasa's `update`). A stack event's `update` is a
 * JSON patch that replaces the whole stack, which Rasa applies as it applies its own patches.
 */
function trackerEvent(event: DialogueEvent, channel: string): TrackerEvent {
  const rasa =
    event.event === 'stack'
      ? { event: 'stack', timestamp: event.timestamp, update: stackPatch(event.stack) }
      : (rasaEvent(event, { intents: intentsOf(event), channel }) ?? {});
  return { ...rasa, ...Object.fromEntries(Object.entries(event).filter(([k]) => !(k in rasa))) };
}

function stackPatch(stack: readonly Frame[]): string {
  return JSON.stringify([{ op: 'replace', path: '', value: stack.map(rasaFrame) }]);
}

function userParseData(event: UserEvent): Record<string, unknown> {
  return parseData(event.text, event.commands ?? [], event.metadata, intentsOf(event));
}

/** A `/name` message (not `/SetSlots(…)` or `/StartFlow(…)`). */
const INTENT_MESSAGE = /^\/(?!SetSlots\s*\(|StartFlow\s*\()([A-Za-z_][\w.-]*)/;

/**
 * The intent a user message names: a `/name` message that started a flow named an intent a
 * flow's `nlu_trigger` lists (the tracker is read without the domain).
 */
function intentsOf(event: DialogueEvent): ReadonlySet<string> {
  if (event.event !== 'user') return new Set();
  const name = INTENT_MESSAGE.exec(event.text.trim())?.[1];
  const started = event.commands?.some((command) => command.command === 'start flow');
  return name !== undefined && started ? new Set([name]) : new Set();
}

/**
 * The action Rasa would name as the latest: `action_listen` while the assistant waits for the
 * user (Rasa logs it at the end of every turn); during a turn (a sub agent still works), the
 * latest action or response of the recent events.
 */
function latestActionName(state: ConversationState): string | null {
  const working = state.stack.some(
    (frame) => frame.type === 'agent' && (frame.status === 'working' || frame.status === 'running'),
  );
  if (!working && latestMessageTime(state) !== undefined) return 'action_listen';
  for (const event of [...state.recent_events].reverse()) {
    if (event.event === 'user') return 'action_listen';
    if (event.event === 'action') return event.name;
    const response = event.event === 'bot' ? event.metadata?.utter_action : undefined;
    if (typeof response === 'string') return response;
  }
  return null;
}
