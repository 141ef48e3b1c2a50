import type nunjucks from 'nunjucks';
import {
  type ConditionScope,
  ConditionSyntaxError,
  conditionHolds,
  isTemplated,
} from '../assistant/index.js';
import { compileTemplate, TemplateSyntaxError } from '../prompts/environment.js';
import type { TurnContext } from './context.js';
import { isKnownAction, runNamedAction } from './customActions.js';
import { patternData } from './frameLifecycle.js';
import type { StepFrame } from './frames.js';
import type { StepOutcome } from './stepOutcome.js';

const CACHE_LIMIT = 1000;
const templates = new Map<string, nunjucks.Template>();

/**
 * Runs a flow's action step. A name with Jinja in it (`validate_{{context.collect}}`) is rendered
 * with the frame's context first, as Rasa does; when it then names no response or action, the
 * step is skipped with a warning, and silently for a `validate_<slot>` action, which a slot
 * need not have.
 */
export async function runActionStep(
  ctx: TurnContext,
  frame: StepFrame,
  action: string,
): Promise<StepOutcome> {
  if (!isTemplated(action)) return runNamedAction(ctx, frame, action);
  const name = renderStepText(ctx, frame, action);
  if (name !== undefined && isKnownAction(ctx, name)) return runNamedAction(ctx, frame, name);
  if (name !== undefined && !name.startsWith('validate_')) {
    ctx.ports.warn?.('a flow step names an action nothing defines; the step is skipped', {
      flow_id: frame.flow_id,
      step_id: frame.step_id,
      action,
      rendered: name,
    });
  }
  return 'advance';
}

/**
 * Whether a step's `next` condition holds. Jinja in it (`slots.{{context.collect}} is not
 * null`) is rendered with the frame's context first, as Rasa does; a rendered condition that
 * does not parse is false, as it is in Rasa.
 */
export function stepConditionHolds(
  ctx: TurnContext,
  frame: StepFrame,
  text: string,
  scope: ConditionScope,
): boolean {
  if (!isTemplated(text)) return conditionHolds(text, scope);
  const rendered = renderStepText(ctx, frame, text);
  if (rendered === undefined) return false;
  try {
    return conditionHolds(rendered, scope);
  } catch (error) {
    if (!(error instanceof ConditionSyntaxError)) throw error;
    ctx.ports.warn?.('a rendered flow condition does not parse; it counts as false', {
      flow_id: frame.flow_id,
      step_id: frame.step_id,
      condition: text,
      rendered,
      error: error.message,
    });
    return false;
  }
}

/**
 * Renders a step's text with `context`, the one variable Rasa gives it; undefined, with a
 * warning, when the Jinja fails (validation reports what it can find before).
 */
function renderStepText(ctx: TurnContext, frame: StepFrame, text: string): string | undefined {
  try {
    return templateOf(text).render({ context: patternData(ctx, frame) });
  } catch (error) {
    if (!(error instanceof TemplateSyntaxError) && !isRenderError(error)) throw error;
    ctx.ports.warn?.('the Jinja of a flow step does not render; the step uses nothing', {
      flow_id: frame.flow_id,
      step_id: frame.step_id,
      text,
      error: error instanceof Error ? error.message : String(error),
    });
    return undefined;
  }
}

function templateOf(text: string): nunjucks.Template {
  let template = templates.get(text);
  if (template === undefined) {
    template = compileTemplate(text, 'flow step');
    // Step texts come from the project, so few recur; the bound only caps a pathological one.
    const oldest = templates.keys().next();
    if (templates.size >= CACHE_LIMIT && oldest.done !== true) templates.delete(oldest.value);
    templates.set(text, template);
  }
  return template;
}

/** nunjucks reports a failure while rendering (calling what is not a function) as a plain Error. */
function isRenderError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'Template render error';
}
