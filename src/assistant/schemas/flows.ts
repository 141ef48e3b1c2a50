import * as z from 'zod';
import { NonEmptyString, strictObject } from './common.js';

/** The keys that decide what a step does; a step has exactly one of them. */
export const STEP_KINDS = ['action', 'collect', 'set_slots', 'link', 'call', 'noop'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

const Condition = NonEmptyString;

const stepBase = {
  id: NonEmptyString.optional(),
  description: z.string().optional(),
};

export type Next = string | readonly NextBranch[];
export type NextBranch = { if: string; then: string | FlowStep[] } | { else: string | FlowStep[] };

const Target: z.ZodType<string | FlowStep[]> = z.lazy(() => z.union([NonEmptyString, StepList]));

const NextBranchSchema: z.ZodType<NextBranch> = z.lazy(() =>
  // biome-ignore lint/suspicious/noThenProperty: `then` is a key of Rasa's flow format.
  z.union([strictObject({ if: Condition, then: Target }), strictObject({ else: Target })], {
    error: 'each branch of next needs "if" with "then", or "else"',
  }),
);

export const NextSchema: z.ZodType<Next> = z.union(
  [NonEmptyString, z.array(NextBranchSchema).min(1)],
  { error: 'next must be a step id, END, or a list of if/then/else branches' },
);

export const ActionStep = strictObject({
  ...stepBase,
  action: NonEmptyString,
  next: NextSchema.optional(),
});
export const CollectStep = strictObject({
  ...stepBase,
  collect: NonEmptyString,
  utter: NonEmptyString.optional(),
  ask_before_filling: z.boolean().default(false),
  reset_after_flow_ends: z.boolean().default(true),
  force_slot_filling: z.boolean().default(false),
  rejections: z.array(strictObject({ if: Condition, utter: NonEmptyString })).default([]),
  next: NextSchema.optional(),
});
export const SetSlotsStep = strictObject({
  ...stepBase,
  set_slots: z.array(
    z.record(z.string(), z.unknown()).refine((v) => Object.keys(v).length === 1, {
      error: 'each entry must set exactly one slot, e.g. "- confirmed: true"',
    }),
  ),
  next: NextSchema.optional(),
});
export const LinkStep = strictObject({ ...stepBase, link: NonEmptyString });
export const McpMapping = strictObject({
  input: z
    .array(
      strictObject({
        param: NonEmptyString,
        slot: NonEmptyString,
      }),
    )
    .default([]),
  output: z.array(strictObject({ slot: NonEmptyString, value: NonEmptyString })).default([]),
});
export type McpMapping = z.infer<typeof McpMapping>;
export const CallStep = strictObject({
  ...stepBase,
  call: NonEmptyString,
  exit_if: z.array(Condition).min(1).optional(),
  mcp_server: NonEmptyString.optional(),
  mapping: McpMapping.optional(),
  next: NextSchema.optional(),
});
export const NoopStep = strictObject({
  ...stepBase,
  noop: z.literal(true, { error: 'must be true' }),
  next: NextSchema,
});

export type ActionStep = z.infer<typeof ActionStep>;
export type CollectStep = z.infer<typeof CollectStep>;
export type SetSlotsStep = z.infer<typeof SetSlotsStep>;
export type LinkStep = z.infer<typeof LinkStep>;
export type CallStep = z.infer<typeof CallStep>;
export type NoopStep = z.infer<typeof NoopStep>;
export type FlowStep = ActionStep | CollectStep | SetSlotsStep | LinkStep | CallStep | NoopStep;

/** The kind keys present in a raw step, in file order. */
export function stepKindKeys(step: unknown): StepKind[] {
  if (step === null || typeof step !== 'object') return [];
  return Object.keys(step).filter((k): k is StepKind =>
    (STEP_KINDS as readonly string[]).includes(k),
  );
}

/**
 * Where a step's kind is kept while zod parses it, so that errors name the keys of the right
 * kind of step. Parsing removes it again: a parsed step holds only keys written in the file.
 */
const PARSE_KIND = '~kind';

/** A step, parsed by the schema of the kind key it holds; `stepKind` reads the kind back. */
export const FlowStepSchema: z.ZodType<FlowStep> = z
  .preprocess(
    (step) => {
      // A step with several kind keys is reported by the exclusive-keys rule; parse it as its first.
      const [kind, ...extra] = stepKindKeys(step);
      if (kind === undefined) return step;
      const rest = Object.fromEntries(
        Object.entries(step as object).filter(([key]) => !(extra as string[]).includes(key)),
      );
      return { ...rest, [PARSE_KIND]: kind };
    },
    z.discriminatedUnion(
      PARSE_KIND,
      [
        ActionStep.extend({ [PARSE_KIND]: z.literal('action') }),
        CollectStep.extend({ [PARSE_KIND]: z.literal('collect') }),
        SetSlotsStep.extend({ [PARSE_KIND]: z.literal('set_slots') }),
        LinkStep.extend({ [PARSE_KIND]: z.literal('link') }),
        CallStep.extend({ [PARSE_KIND]: z.literal('call') }),
        NoopStep.extend({ [PARSE_KIND]: z.literal('noop') }),
      ],
      { error: `a step needs one of: ${STEP_KINDS.join(', ')}` },
    ),
  )
  .transform(({ [PARSE_KIND]: _kind, ...step }) => step) as z.ZodType<FlowStep>;

const StepList: z.ZodType<FlowStep[]> = z.array(FlowStepSchema).min(1, {
  error: 'needs at least one step',
});

export const NluTrigger = z.array(
  z.union([
    NonEmptyString,
    strictObject({
      intent: z.union([
        NonEmptyString,
        strictObject({
          name: NonEmptyString,
          confidence_threshold: z.number().min(0).max(1).optional(),
        }),
      ]),
    }),
  ]),
);

export const FlowDefinition = strictObject({
  name: z.string().optional(),
  description: z.string().optional(),
  if: z.union([Condition, z.boolean()]).optional(),
  nlu_trigger: NluTrigger.optional(),
  persisted_slots: z.array(NonEmptyString).optional(),
  always_include_in_prompt: z.boolean().optional(),
  run_pattern_completed: z.boolean().default(true),
  steps: StepList,
});
export type FlowDefinition = z.infer<typeof FlowDefinition>;

export const FlowId = z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_-]*$/, {
  error: 'flow ids use letters, digits, _ and - and do not start with -',
});

export const FlowsFile = strictObject({
  flows: z.record(FlowId, FlowDefinition).default({}),
});
export type FlowsFile = z.infer<typeof FlowsFile>;
