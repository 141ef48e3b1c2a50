import * as z from 'zod/mini';
import { Command } from './commands/command.js';
import { Frame } from './frames.js';

const at = { timestamp: z.number() };
const flowEvent = <T extends string>(name: T) =>
  z.object({ event: z.literal(name), flow_id: z.string(), step_id: z.optional(z.string()), ...at });
const agentEvent = <T extends string>(name: T) =>
  z.object({ event: z.literal(name), agent_id: z.string(), flow_id: z.string(), ...at });

/**
 * A conversation event, named as in Rasa's tracker. The conversation state is the fold of its
 * events; `timestamp` is in seconds since the epoch.
 */
export const DialogueEvent = z.lazy(() =>
  z.discriminatedUnion('event', [
    z.object({
      event: z.literal('user'),
      text: z.string(),
      metadata: z.optional(z.record(z.string(), z.unknown())),
      commands: z.optional(z.array(Command)),
      ...at,
    }),
    z.object({
      event: z.literal('bot'),
      text: z.optional(z.string()),
      buttons: z.optional(z.array(z.object({ title: z.string(), payload: z.string() }))),
      custom: z.optional(z.unknown()),
      image: z.optional(z.string()),
      metadata: z.optional(z.record(z.string(), z.unknown())),
      ...at,
    }),
    z.object({ event: z.literal('slot'), name: z.string(), value: z.unknown(), ...at }),
    z.object({ event: z.literal('action'), name: z.string(), ...at }),
    /** A new session: `action_session_start` ran. */
    z.object({ event: z.literal('session_started'), ...at }),
    z.object({ event: z.literal('stack'), stack: z.array(Frame), ...at }),
    flowEvent('flow_started'),
    flowEvent('flow_completed'),
    flowEvent('flow_interrupted'),
    flowEvent('flow_resumed'),
    flowEvent('flow_cancelled'),
    agentEvent('agent_started'),
    agentEvent('agent_completed'),
    agentEvent('agent_interrupted'),
    agentEvent('agent_resumed'),
    agentEvent('agent_cancelled'),
  ]),
);
export type DialogueEvent = z.infer<typeof DialogueEvent>;
export type EventName = DialogueEvent['event'];

/** An event without its timestamp, as the engine writes it before stamping. */
export type UnstampedEvent = DialogueEvent extends infer E
  ? E extends { timestamp: number }
    ? Omit<E, 'timestamp'>
    : never
  : never;
