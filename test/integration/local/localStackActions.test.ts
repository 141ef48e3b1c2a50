import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../../../src/local/index.js';
import { assistantFrom, ScriptedLlm } from '../../helpers/dialogue.js';
import { answer, FakeActionServer, utterMessage } from '../../helpers/fakeActionServer.js';
import { ACTION_TOKEN, bankProject } from '../actionServer/fixtures.js';

describe('the local stack with a Rasa action server', () => {
  let server: FakeActionServer;
  let stack: LocalStack;
  const llm = new ScriptedLlm();

  beforeAll(async () => {
    server = await FakeActionServer.start({
      action_check_balance: (call) =>
        answer(
          [
            {
              event: 'slot',
              name: 'balance',
              value: call.body.tracker.slots.account === 'checking' ? 310.5 : 0,
            },
          ],
          [utterMessage({ response: 'utter_greet_user', name: 'Ada' })],
        ),
      action_transfer: (call) =>
        answer([], [utterMessage({ text: `Sent ${call.body.tracker.slots.amount}.` })]),
      // Rasa validates a collected slot with the domain's validate_<slot> action.
      validate_amount: () => answer(),
    });
    stack = await startLocalStack({
      assistant: await assistantFrom(bankProject(server.url)),
      port: 0,
      // The token comes from the stack's secrets (here the environment), at call time.
      env: { ACTION_TOKEN },
      llm,
      announce: () => {},
    });
  }, 30_000);

  afterAll(async () => {
    await stack?.stop();
    await server?.close();
  });

  const say = async (message: string) => {
    const response = await fetch(`${stack.url}/webhooks/rest/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender: 'ada', message, metadata: { device: 'phone' } }),
    });
    return ((await response.json()) as { text: string }[]).map((m) => m.text);
  };

  it('holds a conversation through the REST webhook whose actions run on the server', async () => {
    expect(await say('/check_balance')).toEqual([
      'Hello Ada, welcome back.',
      'Your checking balance is 310.5.',
      'Can I help you with anything else?',
    ]);
    llm.reply('start flow transfer', 'set slot amount 25');
    expect(await say('I want to send money')).toEqual(['How much?']);
    expect(await say('25 please')).toEqual(['Sent 25.', 'Can I help you with anything else?']);

    const [balanceCall] = server.callsOf('action_check_balance');
    const [transferCall] = server.callsOf('action_transfer');
    expect(balanceCall?.query).toEqual({ token: ACTION_TOKEN });
    expect(balanceCall?.body.tracker.latest_message).toMatchObject({
      text: '/check_balance',
      metadata: { device: 'phone' },
    });
    expect(balanceCall?.body.tracker.latest_input_channel).toBe('rest');
    expect(
      transferCall?.body.tracker.events
        .filter((e: { event: string }) => e.event === 'user')
        .map((e: { text: string }) => e.text),
    ).toEqual(['/check_balance', 'I want to send money', '25 please']);

    const tracker = (await (await fetch(`${stack.url}/conversations/ada/tracker`)).json()) as {
      events: { event: string; name?: string }[];
    };
    expect(tracker.events.filter((e) => e.event === 'action').map((e) => e.name)).toEqual([
      'action_session_start',
      'action_check_balance',
      'validate_amount',
      'action_transfer',
    ]);
  });
});
