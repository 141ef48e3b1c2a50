import * as z from 'zod/mini';

/** One message the bot sends: a rendered response variation, named by its `utter_` response. */
export const BotMessage = z.lazy(() =>
  z.object({
    text: z.optional(z.string()),
    buttons: z.optional(z.array(z.object({ title: z.string(), payload: z.string() }))),
    custom: z.optional(z.unknown()),
    image: z.optional(z.string()),
    /** The name of the response it renders, such as `utter_greet`. */
    response: z.optional(z.string()),
    metadata: z.optional(z.record(z.string(), z.unknown())),
  }),
);
export type BotMessage = z.infer<typeof BotMessage>;
