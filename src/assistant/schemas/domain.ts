import * as z from 'zod';
import { NonEmptyString, strictObject } from './common.js';

export const SLOT_TYPES = ['text', 'bool', 'float', 'categorical', 'list', 'any'] as const;
export const SlotType = z.enum(SLOT_TYPES);
export type SlotType = z.infer<typeof SlotType>;

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** How Rasa fills a slot: by the model, only deliberately (controlled), or by NLU. */
export const SLOT_MAPPING_TYPES = [
  'from_llm',
  'controlled',
  'from_entity',
  'from_intent',
  'from_trigger_intent',
  'from_text',
  'custom',
] as const;

/** Mapping types an NLU pipeline applies; Switchboard runs none. */
export const NLU_MAPPING_TYPES: ReadonlySet<string> = new Set([
  'from_entity',
  'from_intent',
  'from_trigger_intent',
  'from_text',
]);

/** Where a mapping applies: Rasa's `conditions` entries. */
export const MappingCondition = strictObject({
  active_flow: NonEmptyString.optional(),
  active_loop: z.string().nullable().optional(),
  requested_slot: z.string().nullable().optional(),
});
export type MappingCondition = z.infer<typeof MappingCondition>;

export const SlotMapping = strictObject({
  type: z.enum(SLOT_MAPPING_TYPES),
  conditions: z.array(MappingCondition).optional(),
  /** NLU may correct what the model filled (coexistence); Switchboard runs no NLU. */
  allow_nlu_correction: z.boolean().optional(),
  /** A custom action that fills a controlled slot. */
  action: NonEmptyString.optional(),
  run_action_every_turn: NonEmptyString.optional(),
  coexistence_system: z.string().optional(),
  entity: z.string().optional(),
  role: z.string().optional(),
  group: z.string().optional(),
  intent: z.union([z.string(), z.array(z.string())]).optional(),
  not_intent: z.union([z.string(), z.array(z.string())]).optional(),
  value: z.unknown().optional(),
});
export type SlotMapping = z.infer<typeof SlotMapping>;

export const SlotDefinition = strictObject({
  type: SlotType,
  values: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
  initial_value: z.unknown().optional(),
  min_value: z.number().optional(),
  max_value: z.number().optional(),
  description: z.string().optional(),
  /** How the slot is filled; none means the model fills it (`from_llm`). */
  mappings: z.array(SlotMapping).optional(),
  validation: strictObject({
    rejections: z.array(strictObject({ if: NonEmptyString, utter: NonEmptyString })).default([]),
    refill_utter: NonEmptyString.optional(),
  }).optional(),
});
export type SlotDefinition = z.infer<typeof SlotDefinition>;

export const Button = strictObject({
  title: NonEmptyString,
  payload: z.string(),
});
export type Button = z.infer<typeof Button>;

export const ResponseCondition = strictObject({
  type: z.literal('slot'),
  name: NonEmptyString,
  value: Scalar,
});
export type ResponseCondition = z.infer<typeof ResponseCondition>;

export const ResponseVariation = strictObject({
  text: z.string().optional(),
  buttons: z.array(Button).optional(),
  custom: z.unknown().optional(),
  image: z.string().optional(),
  /** A predicate such as `slots.logged_in is true`, or Rasa's older list of slot checks. */
  condition: z.union([NonEmptyString, z.array(ResponseCondition)]).optional(),
  channel: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  id: z.string().optional(),
}).refine((v) => v.text !== undefined || v.custom !== undefined || v.image !== undefined, {
  error: 'needs text, custom or image',
});
export type ResponseVariation = z.infer<typeof ResponseVariation>;

/** An intent is listed by name, or as a one-key mapping with Rasa's per-intent options. */
export const IntentEntry = z.union([
  NonEmptyString,
  z.record(z.string(), z.unknown()).refine((v) => Object.keys(v).length === 1, {
    error: 'must be an intent name or a mapping with exactly one intent name',
  }),
]);

/** A custom action the domain declares: its name, or a one-key mapping with Rasa's options. */
export const ActionEntry = z.union([
  NonEmptyString,
  z.record(z.string(), z.unknown()).refine((v) => Object.keys(v).length === 1, {
    error: 'must be an action name or a mapping with exactly one action name',
  }),
]);

/** The name an `actions` entry declares. */
export function actionEntryName(entry: z.infer<typeof ActionEntry>): string {
  return typeof entry === 'string' ? entry : (Object.keys(entry)[0] ?? '');
}

/**
 * Rasa's conversation sessions: after `session_expiration_time` minutes without a user message
 * (0: never), the next message starts a new session; `carry_over_slots_to_new_session` keeps
 * the slots' values into it. `start_session_after_expiry: false` (Rasa 3.16) starts none.
 */
export const SessionConfig = strictObject({
  session_expiration_time: z.number().min(0).optional(),
  carry_over_slots_to_new_session: z.boolean().optional(),
  start_session_after_expiry: z.boolean().optional(),
});
export type SessionConfig = z.infer<typeof SessionConfig>;

export const DomainFile = strictObject({
  session_config: SessionConfig.optional(),
  intents: z.array(IntentEntry).default([]),
  actions: z.array(ActionEntry).default([]),
  slots: z.record(z.string(), SlotDefinition).default({}),
  responses: z
    .record(
      z.string(),
      z.array(ResponseVariation).min(1, { error: 'needs at least one variation' }),
    )
    .default({}),
});
export type DomainFile = z.infer<typeof DomainFile>;
