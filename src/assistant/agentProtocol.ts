import * as z from 'zod/mini';

/** How a sub agent's run stands when it hands control back to the flow. */
export const AgentStatus = z.enum([
  'input_required',
  'completed',
  'fatal_error',
  'recoverable_error',
]);
export type AgentStatus = z.infer<typeof AgentStatus>;

/** A slot as a sub agent sees it. */
export const AgentInputSlot = z.lazy(() =>
  z.object({
    name: z.string(),
    value: z.unknown(),
    type: z.string(),
    allowedValues: z.optional(z.array(z.unknown())),
  }),
);
export type AgentInputSlot = z.infer<typeof AgentInputSlot>;

/** A slot change a sub agent asks for (Rasa's `SlotSet`). */
export const AgentSlotEvent = z.lazy(() =>
  z.object({
    event: z.literal('slot'),
    name: z.string(),
    value: z.unknown(),
  }),
);
export type AgentSlotEvent = z.infer<typeof AgentSlotEvent>;

/** What the orchestrator gives a sub agent on each invocation. */
export const AgentInput = z.lazy(() =>
  z.object({
    id: z.string(),
    userMessage: z.string(),
    slots: z.array(AgentInputSlot),
    /** A readable transcript of the recent conversation, one `USER:` / `AI:` line per message. */
    conversationHistory: z.string(),
    /** Recent conversation events, oldest first. */
    events: z.array(z.record(z.string(), z.unknown())),
    /** Orchestration context: sender and conversation ids, exit conditions, A2A ids, flags. */
    metadata: z.record(z.string(), z.unknown()),
    timestamp: z.optional(z.string()),
  }),
);
export type AgentInput = z.infer<typeof AgentInput>;

/** What a sub agent returns when it hands control back. */
export const AgentOutput = z.lazy(() =>
  z.object({
    id: z.string(),
    status: AgentStatus,
    responseMessage: z.optional(z.string()),
    events: z.optional(z.array(AgentSlotEvent)),
    structuredResults: z.optional(z.array(z.array(z.record(z.string(), z.unknown())))),
    metadata: z.optional(z.record(z.string(), z.unknown())),
    timestamp: z.optional(z.string()),
    errorMessage: z.optional(z.string()),
  }),
);
export type AgentOutput = z.infer<typeof AgentOutput>;
