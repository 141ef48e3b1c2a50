import * as z from 'zod';

/** One message the bot sends: a rendered response variation, named by its `utter_` response. */
export const BotMessage = z.object({
  text: z.string().optional(),
  buttons: z.array(z.object({ title: z.string(), payload: z.string() })).optional(),
  custom: z.unknown().optional(),
  image: z.string().optional(),
  /** The name of the response it renders, such as `utter_greet`. */
  response: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type BotMessage = z.infer<typeof BotMessage>;
