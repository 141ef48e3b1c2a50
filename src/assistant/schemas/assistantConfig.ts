import * as z from 'zod';
import { LlmConfig, NonEmptyString, strictObject } from './common.js';
import { TimeZone } from './subAgent.js';

/** Pipeline components that generate commands with an LLM; Switchboard runs their equivalent. */
export const COMMAND_GENERATORS = [
  'CompactLLMCommandGenerator',
  'SearchReadyLLMCommandGenerator',
  'SingleStepLLMCommandGenerator',
  'MultiStepLLMCommandGenerator',
  'LLMCommandGenerator',
] as const;

export const CommandGeneratorConfig = strictObject({
  name: z.enum(COMMAND_GENERATORS),
  llm: LlmConfig.optional(),
  prompt_template: NonEmptyString.optional(),
  include_date_time: z.boolean().default(false),
  timezone: TimeZone.default('UTC'),
  /** Longer messages get the internal-error pattern without reaching the model (Rasa: 420). */
  user_input: strictObject({ max_characters: z.number().int().positive().default(420) }).default({
    max_characters: 420,
  }),
});
export type CommandGeneratorConfig = z.infer<typeof CommandGeneratorConfig>;

/** A pipeline entry: a command generator is validated; other components are ignored. */
export const PipelineComponent = z.looseObject({ name: NonEmptyString });

export const AssistantConfigFile = strictObject({
  pipeline: z.array(PipelineComponent).default([]),
});
export type AssistantConfigFile = z.infer<typeof AssistantConfigFile>;
