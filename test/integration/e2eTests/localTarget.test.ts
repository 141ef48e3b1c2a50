import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStackTarget, type TurnEvent } from '../../../src/e2eTests/index.js';
import { type LocalStack, startLocalStack } from '../../../src/local/index.js';
import { assistantFrom, ScriptedLlm } from '../../helpers/dialogue.js';
import { BANK_PROJECT } from '../../helpers/e2eProject.js';

const TOKEN = 'test-token';

/** The events a test looks at, without timestamps and stack snapshots. */
const plain = (events: readonly TurnEvent[]) =>
  events.filter((e) => e.event !== 'stack').map(({ timestamp: _t, ...rest }) => rest);

describe('the local stack as the target of conversation tests', () => {
  let stack: LocalStack;
  let target: LocalStackTarget;
  const stopping = new AbortController();

  beforeAll(async () => {
    stack = await startLocalStack({
      assistant: await assistantFrom(BANK_PROJECT),
      port: 0,
      env: { SWITCHBOARD_REST_TOKEN: TOKEN },
      llm: new ScriptedLlm(),
      announce: () => {},
    });
    target = new LocalStackTarget({
      url: stack.url,
      token: TOKEN,
      runtime: stack.runtime,
      signal: stopping.signal,
    });
  });

  afterAll(async () => {
    stopping.abort();
    await stack?.stop();
  });

  it('sets fixture slots as slot events before the first message, without a user message', async () => {
    const events = await target.setSlots('fixture-ada', { membership: 'premium', amount: '50' });
    expect(plain(events)).toEqual([
      { event: 'slot', name: 'membership', value: 'premium' },
      { event: 'slot', name: 'amount', value: 50 },
    ]);
    const turn = await target.send('fixture-ada', '/SetSlots(recipient=Ada)', undefined);
    // The first message opens the session, which starts before it, as in Rasa.
    expect(plain(turn).slice(0, 2)).toMatchObject([
      { event: 'session_started' },
      { event: 'user', text: '/SetSlots(recipient=Ada)' },
    ]);
  });

  it('refuses fixtures for a slot the domain lacks, and writes nothing', async () => {
    await expect(target.setSlots('fixture-bo', { membership: 'gold', tier: 3 })).rejects.toThrow(
      'slot "tier" is not defined in the domain',
    );
    await expect(target.setSlots('fixture-bo', { amount: 'lots' })).rejects.toThrow(
      'slot "amount" cannot take "lots": Expected a number, got "lots".',
    );
    const turn = await target.send('fixture-bo', '/check_balance', undefined);
    expect(turn.filter((e) => e.event === 'slot')).toEqual([]);
  });

  it('sends metadata with the user message as the REST channel does', async () => {
    const events = await target.send('meta-cleo', '/check_balance', { channel_name: 'mobile' });
    expect(plain(events).find((e) => e.event === 'user')).toMatchObject({
      event: 'user',
      text: '/check_balance',
      metadata: { channel_name: 'mobile' },
    });
  });

  it('returns only the events of each turn', async () => {
    await target.send('turns-dan', '/check_balance', undefined);
    const second = await target.send('turns-dan', '/SetSlots(account_type=checking)', undefined);
    expect(second[0]).toMatchObject({ event: 'user', text: '/SetSlots(account_type=checking)' });
    expect(second.filter((e) => e.event === 'user')).toHaveLength(1);
    expect(
      second.filter((e) => e.event === 'flow_started' && e.flow_id === 'check_balance'),
    ).toEqual([]);
    expect(second).toContainEqual(
      expect.objectContaining({ event: 'action', name: 'action_check_balance' }),
    );
  });
});
