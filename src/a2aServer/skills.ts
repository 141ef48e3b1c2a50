/**
 * What the agent card takes from the assistant project: the name of its folder and its skills.
 * It is worked out once from the whole project (the local stack when it starts, the build for a
 * deployment), so the A2A function carries these few strings instead of the project.
 */
import path from 'node:path';
import {
  type A2AServerSettings,
  type Assistant,
  type FlowDefinition,
  isPatternId,
  PATTERN_FLOWS,
} from '../assistant/index.js';

/** A skill as the card lists it (A2A's `AgentSkill` in its JSON form). */
export interface CardSkill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly [key: string]: unknown;
}

/** The project's part of the card. */
export interface CardSource {
  /** The card's name when neither `a2a_server.name` nor a static card gives one. */
  readonly projectName: string;
  /** The configured skills, or one per flow (and per pattern, when repair is reported). */
  readonly skills: readonly CardSkill[];
}

export function cardSource(
  settings: A2AServerSettings,
  assistant: Pick<Assistant, 'flows' | 'projectDir'>,
): CardSource {
  return {
    projectName: path.basename(assistant.projectDir),
    skills: skillsOf(settings, assistant),
  };
}

function skillsOf(settings: A2AServerSettings, assistant: Pick<Assistant, 'flows'>): CardSkill[] {
  if (settings.skills) {
    return settings.skills.map((s) => ({ ...s, name: s.name ?? s.id }));
  }
  const flows = Object.entries(assistant.flows).filter(([id]) => !isPatternId(id));
  const patterns = settings.include_conversation_repair
    ? Object.entries({ ...PATTERN_FLOWS, ...assistant.flows }).filter(([id]) => isPatternId(id))
    : [];
  return [...flows, ...patterns].map(([id, flow]) => flowSkill(id, flow));
}

function flowSkill(id: string, flow: FlowDefinition): CardSkill {
  const name = flow.name ?? id;
  return {
    id,
    name,
    description: flow.description || name,
    tags: [isPatternId(id) ? 'conversation_repair' : 'flow'],
  };
}
