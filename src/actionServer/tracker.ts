import type { ActionContext, DialogueEvent, Frame } from '../dialogue/index.js';
import { parseData, type RasaEvent, rasaEvent } from './rasaEvents.js';

/**
 * The conversation as Rasa's tracker shows it to an action server (`current_state` with every
 * event): slots, the latest user message, the recent events, the dialogue stack. Switchboard
 * keeps a bounded window of recent events, so the oldest events of a long conversation are not
 * sent; the slots and the stack are always whole.
 */
export function rasaTracker(
  context: ActionContext,
  intents: ReadonlySet<string>,
): Record<string, unknown> {
  const recent = context.events ?? [];
  const latestUser = recent.findLast(
    (e): e is Extract<DialogueEvent, { event: 'user' }> => e.event === 'user',
  );
  const userContext = { intents, channel: context.channel };
  const events = recent.flatMap((event) => {
    // The window drops a message's metadata; the latest one is known whole in its own turn.
    const whole =
      event === latestUser && context.latestMetadata
        ? { ...event, metadata: { ...context.latestMetadata } }
        : event;
    const converted = rasaEvent(whole, userContext);
    return converted ? [converted] : [];
  });
  const latestAction = latestActionName(recent);
  const text = context.latestMessage ?? latestUser?.text;
  return {
    sender_id: context.senderId,
    slots: { ...context.slots },
    latest_message:
      text === undefined
        ? null
        : parseData(
            text,
            latestUser?.text === text ? (latestUser.commands ?? []) : [],
            context.latestMetadata ?? latestUser?.metadata,
            intents,
          ),
    latest_event_time: events.at(-1)?.timestamp ?? null,
    followup_action: null,
    paused: false,
    stack: (context.stack ?? []).map(rasaFrame),
    events,
    latest_input_channel: latestUser ? (context.channel ?? null) : null,
    active_loop: {},
    latest_action: latestAction === null ? null : { action_name: latestAction },
    latest_action_name: latestAction,
  };
}

/**
 * The action Rasa would name as the latest before this one: `action_listen` right after a user
 * message, a response's name after it was said, or the latest custom action.
 */
function latestActionName(events: readonly DialogueEvent[]): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as DialogueEvent;
    if (event.event === 'user') return 'action_listen';
    if (event.event === 'action') return event.name;
    const utter = event.event === 'bot' ? event.metadata?.utter_action : undefined;
    if (typeof utter === 'string') return utter;
  }
  return null;
}

/**
 * A frame as Rasa's stack holds it: flows as they are, patterns typed by their flow id with
 * their data alongside, agents with their state.
 */
export function rasaFrame(frame: Frame): RasaEvent {
  switch (frame.type) {
    case 'flow':
      return {
        type: 'flow',
        frame_id: frame.frame_id,
        flow_id: frame.flow_id,
        step_id: frame.step_id,
        frame_type: frame.frame_type,
      };
    case 'pattern':
      return {
        ...frame.data,
        type: frame.flow_id,
        frame_id: frame.frame_id,
        flow_id: frame.flow_id,
        step_id: frame.step_id,
      };
    case 'agent':
      return {
        type: 'agent',
        frame_id: frame.frame_id,
        agent_id: frame.agent_id,
        flow_id: frame.flow_id,
        step_id: frame.step_id,
        state: frame.status,
      };
    default:
      return assertNever(frame);
  }
}

function assertNever(value: never): never {
  throw new Error(`unknown frame ${JSON.stringify(value)}`);
}
