import * as z from 'zod';
import type { Assistant } from '../assistant/index.js';
import type { ActionContext, ActionPort, ActionResult } from '../dialogue/index.js';
import { BotMessage } from '../dialogue/index.js';
import { SwitchboardError } from '../resilience/index.js';
import { exportAt, type ImportedModules } from './moduleExports.js';

export type { ActionContext, ActionResult };

/** A custom action: an exported function of the project's `custom/actions.ts`. */
export type CustomAction = (context: ActionContext) => ActionResult | Promise<ActionResult>;

const Result = z
  .object({
    slots: z.record(z.string(), z.unknown()).optional(),
    messages: z.array(BotMessage).optional(),
    responses: z
      .array(
        z.object({
          name: z.string().optional(),
          variables: z.record(z.string(), z.unknown()).optional(),
          message: z.optional(BotMessage),
        }),
      )
      .optional(),
    resetSlots: z.boolean().optional(),
    restart: z.boolean().optional(),
    followup: z.string().optional(),
    rejected: z.string().optional(),
  })
  .optional();

/**
 * A custom action returned something other than an `ActionResult`.
 * Code `ACTION_RESULT_INVALID`.
 */
export class ActionResultError extends SwitchboardError {
  override readonly name = 'ActionResultError';
  override readonly code = 'ACTION_RESULT_INVALID';
}

/**
 * The project's custom actions as the dialogue engine runs them. Modules are imported once,
 * here; `modules` lets a bundle pass the modules it already imported.
 */
export async function loadProjectActions(
  assistant: Assistant,
  modules: ImportedModules = {},
): Promise<ActionPort> {
  const actions = new Map<string, CustomAction>();
  for (const name of assistant.actions) {
    const location = assistant.extensions[`custom.actions.${name}`];
    if (!location) continue;
    const action = await exportAt(location, modules);
    if (typeof action === 'function') actions.set(name, action as CustomAction);
  }
  return {
    has: (name) => actions.has(name),
    run: async (name, context) => {
      const action = actions.get(name);
      if (!action) throw new Error(`custom action ${name} is not defined`);
      const parsed = Result.safeParse(await action(context));
      if (!parsed.success) {
        throw new ActionResultError(
          `custom action ${name} returned ${parsed.error.issues[0]?.message ?? 'an invalid result'}; return { slots?, messages?, responses? }`,
        );
      }
      return parsed.data ?? {};
    },
  };
}
