import { describe, expect, it } from 'vitest';
import { agentCard, cardSource } from '../../../src/a2aServer/index.js';
import { A2AServerConfig, type A2AServerSettings } from '../../../src/assistant/index.js';

const assistant = {
  projectDir: '/projects/dealership',
  flows: {
    book_test_drive: { description: 'Books a test drive.', steps: [] },
    pattern_cancel_flow: { description: 'Our own cancel pattern.', steps: [] },
  },
} as never;

const cardOf = (given: Record<string, unknown>) => {
  const settings = A2AServerConfig.parse({
    description: 'Dealership',
    ...given,
  }) as A2AServerSettings;
  return agentCard({
    settings,
    source: cardSource(settings, assistant),
    baseUrl: 'http://127.0.0.1:5005/',
    version: '1.2.3',
  });
};

describe('agentCard', () => {
  it('names the project folder and lists the flows and the repair patterns as skills', () => {
    const card = cardOf({});
    expect(card.name).toBe('dealership');
    expect(card.version).toBe('1.2.3');
    expect(card.supportedInterfaces[0]?.url).toBe('http://127.0.0.1:5005/a2a');
    const skills = card.skills.map((s) => s.id);
    expect(skills[0]).toBe('book_test_drive');
    expect(skills).toContain('pattern_correction');
    expect(card.skills.find((s) => s.id === 'pattern_cancel_flow')?.description).toBe(
      'Our own cancel pattern.',
    );
  });

  it('lists only the flows when repair turns are not reported, and the configured skills when given', () => {
    expect(cardOf({ include_conversation_repair: false }).skills.map((s) => s.id)).toEqual([
      'book_test_drive',
    ]);
    const card = cardOf({ skills: [{ id: 'drive', description: 'Test drives.' }] });
    expect(card.skills).toEqual([
      expect.objectContaining({ id: 'drive', name: 'drive', description: 'Test drives.' }),
    ]);
  });

  it('takes name and skills from a static card, and serves its own interfaces at the public url', () => {
    const settings = {
      ...A2AServerConfig.parse({ description: 'Dealership', url: 'https://cars.example/' }),
      staticCard: {
        name: 'Static',
        url: 'http://elsewhere/',
        skills: [{ id: 'x', name: 'X', description: 'Does x.', tags: [] }],
      },
    };
    const card = agentCard({
      settings,
      source: cardSource(settings, assistant),
      baseUrl: 'http://127.0.0.1:5005',
      version: '1.2.3',
    });
    expect(card.name).toBe('Static');
    expect(card.skills.map((s) => s.id)).toEqual(['x']);
    expect(card.supportedInterfaces.map((i) => i.url)).toEqual([
      'https://cars.example/a2a',
      'https://cars.example/a2a',
    ]);
  });
});
