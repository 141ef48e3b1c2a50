import type nunjucks from 'nunjucks';
import type {
  Assistant,
  FlowDefinition,
  ResponseVariation,
  SessionSettings,
  SlotDefinition,
} from '../assistant/index.js';
import {
  BUILTIN_RESPONSES,
  BUILTIN_SLOTS,
  DEFAULT_SESSION,
  isPatternId,
  PATTERN_FLOWS,
} from '../assistant/index.js';
import { compileTemplate } from '../prompts/environment.js';
import { DEFAULT_COMMAND_PROMPT } from './commandGenerator/defaultPrompt.js';
import { compileFlow, type FlowGraph } from './flowGraph.js';
import { buildRephraseSetup, type RephraseSetup } from './rephrase/setup.js';

/**
 * An assistant prepared for the dialogue engine: flows compiled (project flows over the built-in
 * patterns), slots and responses merged with the built-in ones, the command prompt compiled.
 * Built once per process.
 */
export interface DialogueModel {
  readonly assistant: Assistant;
  readonly flows: ReadonlyMap<string, FlowGraph>;
  readonly slots: Readonly<Record<string, SlotDefinition>>;
  readonly responses: Readonly<Record<string, readonly ResponseVariation[]>>;
  /** Intent name → the flow whose `nlu_trigger` names it. */
  readonly intentFlows: ReadonlyMap<string, string>;
  /** The slots a project flow (not a pattern) has a collect step for. */
  readonly askedSlots: ReadonlySet<string>;
  readonly commandPrompt: nunjucks.Template;
  /** When a session expires and what it carries over (Rasa's defaults unless the domain says). */
  readonly session: SessionSettings;
  /** Response rephrasing, when endpoints.yml turns it on. */
  readonly rephrase?: RephraseSetup;
}

export function buildDialogueModel(assistant: Assistant): DialogueModel {
  const definitions: Record<string, FlowDefinition> = { ...PATTERN_FLOWS, ...assistant.flows };
  const flows = new Map<string, FlowGraph>();
  for (const [id, definition] of Object.entries(definitions))
    flows.set(id, compileFlow(id, definition));

  const intentFlows = new Map<string, string>();
  // Patterns first, so that a project flow triggered by the same intent wins.
  for (const [id, flow] of Object.entries(definitions)) {
    for (const trigger of flow.nlu_trigger ?? []) {
      const intent = typeof trigger === 'string' ? trigger : trigger.intent;
      intentFlows.set(typeof intent === 'string' ? intent : intent.name, id);
    }
  }

  const askedSlots = new Set(
    Object.keys(assistant.flows)
      .filter((id) => !isPatternId(id))
      .flatMap((id) => [...(flows.get(id)?.collectSteps.keys() ?? [])]),
  );

  const template = assistant.commandGenerator.promptTemplate;
  const responses = { ...BUILTIN_RESPONSES, ...assistant.responses };
  const rephrase = buildRephraseSetup(assistant, responses);
  return {
    assistant,
    flows,
    slots: { ...BUILTIN_SLOTS, ...assistant.slots },
    responses,
    intentFlows,
    askedSlots,
    session: assistant.session ?? DEFAULT_SESSION,
    ...(rephrase ? { rephrase } : {}),
    commandPrompt: compileTemplate(
      template?.text ?? DEFAULT_COMMAND_PROMPT,
      template?.file ?? 'default command prompt',
    ),
  };
}

/** Initial slot values of a new conversation. */
export function initialSlots(model: DialogueModel): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(model.slots).map(([name, slot]) => [name, slot.initial_value ?? null]),
  );
}
