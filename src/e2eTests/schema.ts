import * as z from 'zod';
import { strictObject } from '../assistant/index.js';

/** A fixture, metadata or test-step name, as Rasa's schema allows them. */
export const TestName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
  error: 'must start with a letter or "_" and hold only letters, digits and "_"',
});

/** The top level of an e2e test file. */
export const TestFile = strictObject({
  test_cases: z.array(z.unknown()),
  fixtures: z.array(z.record(TestName, z.array(z.record(z.string(), z.unknown())))).optional(),
  metadata: z.array(z.record(TestName, z.record(z.string(), z.unknown()))).optional(),
  stub_custom_actions: z.record(z.string(), z.unknown()).optional(),
});
export type TestFile = z.infer<typeof TestFile>;

export const TestCaseShape = strictObject({
  test_case: z.string().trim().min(1, { error: 'must not be empty' }),
  steps: z.array(z.unknown()).min(1, { error: 'must list at least one step' }),
  fixtures: z.array(TestName).optional(),
  metadata: TestName.optional(),
});

export const UserStep = strictObject({
  user: z.string(),
  metadata: TestName.optional(),
  assertions: z.array(z.unknown()).optional(),
  assertion_order_enabled: z.boolean().optional(),
});

export const BotStep = strictObject({ bot: z.string() });
export const UtterStep = strictObject({ utter: z.string() });

/** `slot_was_set` / `slot_was_not_set` steps: slot names, or one-key `{slot: value}` mappings. */
export const SlotEntries = z.array(z.union([z.string(), z.record(z.string(), z.unknown())]));

const SlotAssertion = z.array(strictObject({ name: z.string(), value: z.unknown().optional() }));

const Button = strictObject({ title: z.string(), payload: z.string() });

const BotMatch = strictObject({
  utter_name: z.string().optional(),
  text_matches: z.string().optional(),
  buttons: z.array(Button).min(1).optional(),
}).refine((m) => m.utter_name ?? m.text_matches ?? m.buttons, {
  error: 'needs at least one of utter_name, text_matches, buttons',
});

const FlowEnd = strictObject({ flow_id: z.string(), flow_step_id: z.string().optional() });

const Threshold = z.number().min(0).max(1);

/** The value each assertion type takes, by its name: every assertion Rasa documents. */
export const ASSERTION_SCHEMAS = {
  flow_started: z.string(),
  flow_completed: FlowEnd,
  flow_cancelled: FlowEnd,
  pattern_clarification_contains: z.array(z.string()).min(1),
  action_executed: z.string(),
  slot_was_set: SlotAssertion,
  slot_was_not_set: SlotAssertion,
  bot_uttered: BotMatch,
  bot_did_not_utter: BotMatch,
  generative_response_is_relevant: strictObject({
    threshold: Threshold,
    utter_name: z.string().optional(),
    utter_source: z.string().optional(),
  }),
  generative_response_is_grounded: strictObject({
    threshold: Threshold,
    utter_name: z.string().optional(),
    utter_source: z.string().optional(),
    ground_truth: z.string().optional(),
  }),
} as const;

export type AssertionType = keyof typeof ASSERTION_SCHEMAS;
export const ASSERTION_TYPES = Object.keys(ASSERTION_SCHEMAS) as AssertionType[];

/** A response or event a stubbed custom action returns. */
export const StubResponse = strictObject({
  text: z.string().optional(),
  buttons: z.array(Button).optional(),
  image: z.string().optional(),
  custom: z.unknown().optional(),
  response: z.string().optional(),
  attachment: z.unknown().optional(),
  elements: z.unknown().optional(),
});
export type StubResponse = z.infer<typeof StubResponse>;

export const StubEvent = z.discriminatedUnion('event', [
  z.object({ event: z.literal('slot'), name: z.string(), value: z.unknown() }).loose(),
  z
    .object({
      event: z.literal('bot'),
      text: z.string().optional(),
      data: z.record(z.string(), z.unknown()).optional(),
    })
    .loose(),
]);
export type StubEvent = z.infer<typeof StubEvent>;

export const StubAction = strictObject({
  events: z.array(z.unknown()).optional(),
  responses: z.array(StubResponse).optional(),
});
