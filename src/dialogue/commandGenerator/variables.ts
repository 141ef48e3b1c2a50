import type { SlotDefinition } from '../../assistant/index.js';
import { conditionHolds, isPatternId } from '../../assistant/index.js';
import { pythonRepr, pythonSlotStr, pythonStr } from '../../prompts/python.js';
import { transcript } from '../agentInput.js';
import type { FlowGraph } from '../flowGraph.js';
import type { DialogueModel } from '../model.js';
import { activeAgent, topFlowFrame } from '../stackQueries.js';
import type { ConversationState } from '../state.js';

interface PromptSlot {
  readonly name: string;
  readonly description: string | null;
  /** As Rasa gives it: the Python list written out, such as `['a', 'b']`; null for other types. */
  readonly allowed_values: string | null;
}

/**
 * The variables of a command-generator prompt, named as Rasa names them, so that a project's own
 * template keeps working.
 */
export function promptVariables(
  model: DialogueModel,
  state: ConversationState,
  userMessage: string,
): Record<string, unknown> {
  const flow = topFlowFrame(state.stack);
  const graph = flow ? model.flows.get(flow.flow_id) : undefined;
  const step = flow && graph?.steps.get(flow.step_id)?.step;
  const currentSlot = step && 'collect' in step ? step.collect : undefined;
  const currentSlotDef = currentSlot ? model.slots[currentSlot] : undefined;
  const agentFrame = activeAgent(state.stack);
  const history = [...state.history, { role: 'user' as const, text: userMessage }];

  return {
    available_flows: availableFlows(model, state),
    current_flow: flow?.flow_id ?? null,
    current_slot: currentSlot ?? null,
    current_slot_description:
      (step && 'collect' in step ? step.description : undefined) ??
      currentSlotDef?.description ??
      null,
    current_slot_type: currentSlotDef?.type ?? null,
    current_slot_allowed_values: currentSlot ? allowedValues(currentSlotDef) : null,
    flow_slots: graph
      ? [...graph.collectSteps.keys()].map((name) => ({
          ...promptSlot(graph, name, model.slots[name]),
          // As Rasa fills its templates: an unset slot reads "undefined", a set one str(value).
          value: slotValueText(state.slots[name], model.slots[name]),
          type: model.slots[name]?.type ?? 'any',
        }))
      : [],
    current_conversation: transcript(history),
    user_message: userMessage,
    active_agent: (agentFrame && agentInfo(model, agentFrame.agent_id)) ?? null,
    completed_agents: (state.agents?.completed ?? []).flatMap((id) => agentInfo(model, id) ?? []),
  };
}

/**
 * Flows the user can start now: not patterns, and whose `if` guard holds. A flow that started sub
 * agents in this session lists them as `agent_info`, as Rasa's agent-aware templates read them.
 */
function availableFlows(model: DialogueModel, state: ConversationState) {
  const scope = { slots: state.slots };
  const started = state.agents?.started ?? [];
  const flows = [];
  for (const [id, graph] of model.flows) {
    if (isPatternId(id)) continue;
    const guard = graph.definition.if;
    if (guard === false || (typeof guard === 'string' && !conditionHolds(guard, scope))) continue;
    const agents = started
      .filter((s) => s.flow_id === id)
      .flatMap((s) => agentInfo(model, s.agent_id) ?? []);
    flows.push({
      name: id,
      description: graph.definition.description ?? graph.definition.name ?? id,
      slots: [...graph.collectSteps.keys()].map((name) =>
        promptSlot(graph, name, model.slots[name]),
      ),
      ...(agents.length > 0 ? { agent_info: agents } : {}),
    });
  }
  return flows;
}

/** A sub agent as Rasa's templates see it; undefined when the project no longer has it. */
function agentInfo(model: DialogueModel, id: string) {
  const agent = model.assistant.agents[id];
  return agent ? { name: agent.name, description: agent.description } : undefined;
}

/**
 * A slot as Rasa's templates see it: described by its collect step (the instructions a flow
 * gives for it), else by the domain; a bool allows `[True, False]`.
 */
function promptSlot(graph: FlowGraph, name: string, slot: SlotDefinition | undefined): PromptSlot {
  const stepDescription = (graph.collectSteps.get(name) ?? [])
    .map((id) => graph.steps.get(id)?.step)
    .map((step) => (step && 'collect' in step ? step.description : undefined))
    .find((description) => description !== undefined);
  return {
    name,
    description: stepDescription ?? slot?.description ?? null,
    allowed_values: allowedValues(slot),
  };
}

/**
 * A slot's allowed values as Rasa writes them into prompts, `str()` of a Python list: a bool's
 * `[True, False]`, a categorical slot's values as strings (`['1', 'blue']`); null otherwise.
 */
function allowedValues(slot: SlotDefinition | undefined): string | null {
  if (slot?.type === 'bool') return pythonRepr([true, false]);
  if (slot?.type !== 'categorical') return null;
  const values = (slot.values ?? []).filter((v) => v !== null && v !== undefined);
  return pythonRepr(values.map((v) => pythonStr(v)).filter((v) => v !== OTHER_VALUE));
}

/** The value Rasa adds to every categorical slot, never offered to the model. */
const OTHER_VALUE = '__other__';

/** A slot's value as Rasa prints it: `undefined` when unset, else Python's `str()`. */
function slotValueText(value: unknown, slot: SlotDefinition | undefined): string {
  if (value === null || value === undefined) return 'undefined';
  return pythonSlotStr(value, slot?.type);
}
