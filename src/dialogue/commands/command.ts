import * as z from 'zod/mini';

/**
 * What the user's message asks the assistant to do, in Rasa's command vocabulary. Produced by
 * the LLM command generator (from its one-command-a-line DSL) or deterministically from
 * `/SetSlots(...)`, `/StartFlow(...)` and `/intent` messages.
 */
export const Command = z.lazy(() =>
  z.discriminatedUnion('command', [
    z.object({ command: z.literal('start flow'), flow: z.string() }),
    z.object({ command: z.literal('set slot'), name: z.string(), value: z.unknown() }),
    z.object({ command: z.literal('cancel flow') }),
    z.object({ command: z.literal('disambiguate flows'), flows: z.array(z.string()) }),
    z.object({ command: z.literal('offtopic reply') }),
    z.object({ command: z.literal('hand over') }),
    z.object({ command: z.literal('repeat message') }),
    /** A question a knowledge base would answer (Rasa's search pattern). */
    z.object({ command: z.literal('provide info') }),
    /** The user wants to skip the question a flow asks. */
    z.object({ command: z.literal('skip question') }),
    z.object({ command: z.literal('continue agent') }),
    /** Starts the active sub agent over; with `agent`, only when that is the active one. */
    z.object({ command: z.literal('restart agent'), agent: z.optional(z.string()) }),
    /** The message could not be turned into commands (unparseable model output, say). */
    z.object({ command: z.literal('cannot handle'), reason: z.string() }),
  ]),
);
export type Command = z.infer<typeof Command>;
export type CommandName = Command['command'];
