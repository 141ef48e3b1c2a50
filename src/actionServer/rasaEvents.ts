import type { DialogueEvent } from '../dialogue/index.js';

/** A `/name` message, with Rasa's entity JSON after the name or not. */
const INTENT = /^\/([A-Za-z_][\w.-]*)/;

/** An event as Rasa's tracker serialises it for an action server. */
export type RasaEvent = Record<string, unknown>;

/** What the user message events need beyond themselves. */
export interface UserEventContext {
  /** The intents of the domain: a `/name` message names one. */
  readonly intents: ReadonlySet<string>;
  /** The channel the conversation is on. */
  readonly channel: string | undefined;
}

/**
 * Rasa's form of a conversation event. Stack events carry our stack, not Rasa's patch, and are
 * left out (the request's tracker has the stack); every other event keeps its name and fields.
 */
export function rasaEvent(event: DialogueEvent, context: UserEventContext): RasaEvent | undefined {
  const at = { timestamp: event.timestamp };
  switch (event.event) {
    case 'user':
      return {
        event: 'user',
        ...at,
        text: event.text,
        parse_data: parseData(event.text, event.commands ?? [], event.metadata, context.intents),
        input_channel: context.channel ?? null,
        message_id: null,
        metadata: event.metadata ?? {},
      };
    case 'bot':
      return {
        event: 'bot',
        ...at,
        text: event.text ?? null,
        data: {
          elements: null,
          quick_replies: null,
          buttons: event.buttons ?? null,
          attachment: event.image ?? null,
          image: event.image ?? null,
          custom: event.custom ?? null,
        },
        metadata: event.metadata ?? {},
      };
    case 'slot':
      return { event: 'slot', ...at, name: event.name, value: event.value ?? null };
    case 'action':
      return {
        event: 'action',
        ...at,
        name: event.name,
        policy: null,
        confidence: 1,
        action_text: null,
        hide_rule_turn: false,
      };
    case 'stack':
      return undefined;
    case 'session_started':
      return { event: 'session_started', ...at };
    case 'flow_started':
      // Rasa's flow start names no step.
      return { event: event.event, ...at, flow_id: event.flow_id };
    case 'flow_completed':
    case 'flow_interrupted':
    case 'flow_resumed':
    case 'flow_cancelled':
      return { event: event.event, ...at, flow_id: event.flow_id, step_id: event.step_id ?? null };
    case 'agent_started':
    case 'agent_completed':
    case 'agent_interrupted':
    case 'agent_resumed':
    case 'agent_cancelled':
      return { event: event.event, ...at, agent_id: event.agent_id, flow_id: event.flow_id };
    default:
      return assertNever(event);
  }
}

/**
 * A user message as Rasa's NLU would have parsed it in a CALM assistant: no entities, the
 * intent a `/name` message names (else none), and the commands the message became.
 */
export function parseData(
  text: string,
  commands: readonly unknown[],
  metadata: Readonly<Record<string, unknown>> | undefined,
  intents: ReadonlySet<string>,
): Record<string, unknown> {
  const named = INTENT.exec(text.trim())?.[1];
  const intent =
    named !== undefined && intents.has(named)
      ? { name: named, confidence: 1 }
      : { name: null, confidence: 0 };
  return {
    text,
    intent,
    entities: [],
    intent_ranking: intent.name === null ? [] : [intent],
    commands: [...commands],
    message_id: null,
    metadata: metadata ?? {},
  };
}

function assertNever(value: never): never {
  throw new Error(`unknown event ${JSON.stringify(value)}`);
}
