import type nunjucks from 'nunjucks';
import type { Assistant, RephraserSettings, ResponseVariation } from '../../assistant/index.js';
import { compileTemplate } from '../../prompts/environment.js';
import { DEFAULT_REPHRASE_PROMPT, SUMMARY_PROMPT } from './prompts.js';

/** How long a rephrasing call may take when its model sets no `timeout` (Rasa's default). */
export const DEFAULT_REPHRASE_TIMEOUT_MS = 5000;

/** Response rephrasing prepared for the engine: settings and compiled prompts. */
export interface RephraseSetup {
  readonly settings: RephraserSettings;
  readonly prompt: nunjucks.Template;
  readonly summaryPrompt: nunjucks.Template;
  /** Responses' own `metadata.rephrase_prompt`, compiled, by their text. */
  readonly responsePrompts: ReadonlyMap<string, nunjucks.Template>;
  /** How long one model call may take: the model's `timeout`, or the default. */
  readonly timeoutMs: number;
}

/** The rephrasing setup of an assistant, or undefined when its endpoints.yml turns none on. */
export function buildRephraseSetup(
  assistant: Assistant,
  responses: Readonly<Record<string, readonly ResponseVariation[]>>,
): RephraseSetup | undefined {
  const settings = assistant.rephraser;
  if (!settings) return undefined;
  const responsePrompts = new Map<string, nunjucks.Template>();
  for (const [name, variations] of Object.entries(responses)) {
    for (const variation of variations) {
      const text = variation.metadata?.rephrase_prompt;
      if (typeof text === 'string' && !responsePrompts.has(text)) {
        responsePrompts.set(text, compileTemplate(text, `${name} rephrase_prompt`));
      }
    }
  }
  const template = settings.promptTemplate;
  return {
    settings,
    prompt: compileTemplate(
      template?.text ?? DEFAULT_REPHRASE_PROMPT,
      template?.file ?? 'default rephrase prompt',
    ),
    summaryPrompt: compileTemplate(SUMMARY_PROMPT, 'history summary prompt'),
    responsePrompts,
    timeoutMs: modelTimeoutMs(assistant, settings) ?? DEFAULT_REPHRASE_TIMEOUT_MS,
  };
}

function modelTimeoutMs(assistant: Assistant, settings: RephraserSettings): number | undefined {
  const llm = settings.llm;
  const group = llm?.model_group;
  const seconds =
    group === undefined ? llm?.timeout : assistant.modelGroups[group]?.models[0]?.timeout;
  return seconds === undefined ? undefined : seconds * 1000;
}
