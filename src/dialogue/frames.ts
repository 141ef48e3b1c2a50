import * as z from 'zod/mini';

/** Where a frame stands in its flow before the first step has run. */
export const START = 'START';

/** A running flow: one of the project's flows. */
export const FlowFrame = z.lazy(() =>
  z.object({
    type: z.literal('flow'),
    frame_id: z.string(),
    flow_id: z.string(),
    /** The step in progress (waiting at a collect or a call) or the last step done. */
    step_id: z.string(),
    /** How the flow started: by the user, as a digression, called by another flow, or linked. */
    frame_type: z.enum(['regular', 'interrupt', 'call', 'link']),
    /** A digression was pushed above this flow; offer to return to it when it is on top again. */
    interrupted: z.optional(z.boolean()),
  }),
);
export type FlowFrame = z.infer<typeof FlowFrame>;

/** A running pattern: a built-in (or project-overridden) flow for conversation repair. */
export const PatternFrame = z.lazy(() =>
  z.object({
    type: z.literal('pattern'),
    frame_id: z.string(),
    flow_id: z.string(),
    step_id: z.string(),
    /** What the pattern works on, e.g. the flow that was cancelled or the slots corrected. */
    data: z.record(z.string(), z.unknown()),
  }),
);
export type PatternFrame = z.infer<typeof PatternFrame>;

/** A user message kept until the agent's run reports back. */
export const HeldMessage = z.lazy(() =>
  z.object({
    text: z.string(),
    metadata: z.optional(z.record(z.string(), z.unknown())),
  }),
);
export type HeldMessage = z.infer<typeof HeldMessage>;

/** Messages a working agent frame keeps at most; older ones are dropped first. */
export const MAX_HELD_MESSAGES = 10;

/** A sub agent working for the flow frame below it. */
export const AgentFrame = z.lazy(() =>
  z.object({
    type: z.literal('agent'),
    frame_id: z.string(),
    agent_id: z.string(),
    flow_id: z.string(),
    /** The `call` step of the flow that started the agent. */
    step_id: z.string(),
    /**
     * `running`: to be invoked now (see `invocation`); `working`: its run goes on in the background
     * (see `run_id`); `input_required`: waiting for the user; `interrupted`: a digression is on top.
     */
    status: z.enum(['running', 'working', 'input_required', 'interrupted']),
    /** The durable run working on the agent's current invocation. */
    run_id: z.optional(z.string()),
    /** Why the agent runs next: first start, the user's answer, after an interruption, or anew. */
    invocation: z.optional(z.enum(['start', 'continue', 'resume', 'restart'])),
    exit_if: z.optional(z.array(z.string())),
    /** The agent's last message to the user, offered to it when it resumes. */
    last_message: z.optional(z.string()),
    /** Ids a remote agent needs on the next message of the same task (A2A `context_id`, `task_id`). */
    session: z.optional(z.record(z.string(), z.string())),
    /**
     * Messages the user sent while the run worked, oldest first: handled in order once the run
     * reports back (the answer it asked for, or new turns when it finished).
     */
    held: z.optional(z.array(HeldMessage)),
  }),
);
export type AgentFrame = z.infer<typeof AgentFrame>;

export const Frame = z.lazy(() =>
  z.discriminatedUnion('type', [FlowFrame, PatternFrame, AgentFrame]),
);
export type Frame = z.infer<typeof Frame>;

/** A frame that runs the steps of a flow (a project flow or a pattern). */
export type StepFrame = FlowFrame | PatternFrame;

export function isStepFrame(frame: Frame): frame is StepFrame {
  return frame.type === 'flow' || frame.type === 'pattern';
}
