import { z } from 'zod';
import { NonEmptyString, strictObject } from './common.js';

export const SLOT_TYPES = ['text', 'bool', 'float', 'categorical', 'list', 'any'] as const;
export const SlotType = z.enum(SLOT_TYPES);
export type SlotType = z.infer<typeof SlotType>;

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const SlotDefinition = strictObject({
  type: SlotType,
  values: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
  initial_value: z.unknown().optional(),
  min_value: z.number().optional(),
  max_value: z.number().optional(),
  description: z.string().optional(),
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

export const DomainFile = strictObject({
  intents: z.array(IntentEntry).default([]),
  slots: z.record(z.string(), SlotDefinition).default({}),
  responses: z
    .record(
      z.string(),
      z.array(ResponseVariation).min(1, { error: 'needs at least one variation' }),
    )
    .default({}),
});
export type DomainFile = z.infer<typeof DomainFile>;
