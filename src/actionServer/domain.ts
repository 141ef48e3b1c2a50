import { createHash } from 'node:crypto';
import type { Assistant } from '../assistant/index.js';

/** The domain as Rasa sends it to an action server, and a digest that names this content. */
export interface RasaDomain {
  readonly domain: Readonly<Record<string, unknown>>;
  /** Rasa's `domain_digest`: an action server keeps a domain it was sent under its digest. */
  readonly digest: string;
}

/**
 * The project's domain in the shape of Rasa's `Domain.as_dict()`: intents, slots with their
 * defaults, responses, the custom actions the domain lists, and the empty NLU-only sections.
 */
export function rasaDomain(assistant: Assistant): RasaDomain {
  const slots = Object.fromEntries(
    Object.entries(assistant.slots).map(([name, slot]) => [
      name,
      {
        initial_value: null,
        influence_conversation: false,
        mappings: [{ type: 'from_llm' }],
        ...slot,
      },
    ]),
  );
  const domain = {
    version: '3.1',
    session_config: { session_expiration_time: 0, carry_over_slots_to_new_session: true },
    intents: [...assistant.intents],
    entities: [],
    slots,
    responses: assistant.responses,
    actions: [...assistant.domainActions],
    forms: {},
    e2e_actions: [],
  };
  const digest = createHash('sha256').update(JSON.stringify(domain)).digest('hex');
  return { domain, digest };
}

/**
 * Whether a call of the action carries the domain, by Rasa's rule: always, unless
 * `enable_selective_domain` is set; then only for actions whose domain entry says
 * `send_domain: true` and for `validate_` actions.
 */
export function sendsDomain(assistant: Assistant, actionName: string): boolean {
  if (assistant.actionEndpoint?.enable_selective_domain !== true) return true;
  return (
    actionName.startsWith('validate_') ||
    (assistant.domainActionsSendingDomain ?? []).includes(actionName)
  );
}
