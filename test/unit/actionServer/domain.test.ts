import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rasaDomain, sendsDomain } from '../../../src/actionServer/index.js';
import type { Assistant } from '../../../src/assistant/index.js';

const assistant = {
  intents: ['greet'],
  slots: { name: { type: 'text' }, mood: { type: 'bool', influence_conversation: true } },
  responses: { utter_greet: [{ text: 'Hi' }] },
  domainActions: ['action_a', 'validate_name'],
} as unknown as Assistant;

describe('the domain sent to an action server', () => {
  it("has every section of Rasa's domain, with Rasa's defaults for slots", () => {
    expect(rasaDomain(assistant).domain).toStrictEqual({
      version: '3.1',
      session_config: { session_expiration_time: 0, carry_over_slots_to_new_session: true },
      intents: ['greet'],
      entities: [],
      slots: {
        name: {
          type: 'text',
          initial_value: null,
          influence_conversation: false,
          mappings: [{ type: 'from_llm' }],
        },
        mood: {
          type: 'bool',
          initial_value: null,
          influence_conversation: true,
          mappings: [{ type: 'from_llm' }],
        },
      },
      responses: { utter_greet: [{ text: 'Hi' }] },
      actions: ['action_a', 'validate_name'],
      forms: {},
      e2e_actions: [],
    });
  });

  it('is named by the SHA-256 digest of its JSON', () => {
    const { domain, digest } = rasaDomain(assistant);
    expect(digest).toBe(createHash('sha256').update(JSON.stringify(domain)).digest('hex'));
  });
});

describe('which calls carry the domain', () => {
  it('all of them when the project has no action endpoint settings', () => {
    expect(sendsDomain(assistant, 'action_a')).toBe(true);
  });

  it('all of them unless enable_selective_domain is exactly true', () => {
    const loose = {
      ...assistant,
      actionEndpoint: { url: 'http://127.0.0.1:5055/webhook', enable_selective_domain: 'yes' },
    } as unknown as Assistant;
    expect(sendsDomain(loose, 'action_a')).toBe(true);
  });

  it('with a selective domain and no action asking for it, only validate_ actions', () => {
    const selective = {
      ...assistant,
      actionEndpoint: { url: 'http://127.0.0.1:5055/webhook', enable_selective_domain: true },
    } as unknown as Assistant;
    expect(sendsDomain(selective, 'action_a')).toBe(false);
    expect(sendsDomain(selective, 'validate_name')).toBe(true);
  });
});
