import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../../../src/local/index.js';
import { a2aStack } from '../../helpers/a2aClient.js';
import { assistantFrom, ScriptedLlm } from '../../helpers/dialogue.js';
import { BASE_PROJECT } from '../../helpers/project.js';
import { type RecordingProxy, startRecordingProxy } from '../../helpers/recordingProxy.js';

const KEY = 'greeter-key-2468';

/**
 * The greeter is a Switchboard assistant served over A2A; the front desk is another, which calls
 * the greeter from a flow as its external sub agent, through a proxy that records what it sends.
 */
describe('two Switchboard assistants, one the other’s A2A sub agent', () => {
  const greeterLlm = new ScriptedLlm();
  const deskLlm = new ScriptedLlm();
  let greeter: LocalStack;
  let desk: LocalStack;
  let proxy: RecordingProxy;
  const sent: string[] = [];

  beforeAll(async () => {
    greeter = await a2aStack(
      '  description: Greets people by name.\n  auth:\n    api_key: ${GREETER_KEY}\n',
      { llm: greeterLlm, env: { GREETER_KEY: KEY }, files: { '.env': `GREETER_KEY=${KEY}\n` } },
    );
    proxy = await startRecordingProxy(greeter.url, (body) => sent.push(body));
    const card = (await (
      await fetch(`${greeter.url}/.well-known/agent-card.json`, {
        headers: { 'a2a-version': '1.0' },
      })
    ).json()) as { supportedInterfaces: { url: string }[] };
    const proxied = {
      ...card,
      supportedInterfaces: card.supportedInterfaces.map((i) => ({
        ...i,
        url: `${proxy.endpoint}/a2a`,
      })),
    };
    desk = await startLocalStack({
      assistant: await assistantFrom({
        ...BASE_PROJECT,
        '.env': `GREETER_KEY=${KEY}\n`,
        'domain.yml': `${BASE_PROJECT['domain.yml']}  utter_handed_back:\n    - text: Back at the front desk.\n`,
        'data/flows.yml': `flows:
  greet_by_greeter:
    description: Let the greeter greet the visitor.
    steps:
      - call: greeter
      - action: utter_handed_back
`,
        'sub_agents/greeter/card.json': JSON.stringify(proxied),
        'sub_agents/greeter/config.yml': `agent:
  name: greeter
  protocol: A2A
  description: Greets people by name.
configuration:
  agent_card: ./sub_agents/greeter/card.json
  auth:
    api_key: \${GREETER_KEY}
    header_name: X-API-Key
    header_format: "{key}"
`,
      }),
      port: 0,
      env: { GREETER_KEY: KEY },
      llm: deskLlm,
      announce: () => {},
    });
  }, 60_000);
  afterAll(async () => {
    await desk?.stop();
    await proxy?.close();
    await greeter?.stop();
  });

  const say = async (message: string) => {
    const response = await fetch(`${desk.url}/webhooks/rest/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender: 'visitor', message }),
    });
    return ((await response.json()) as { text?: string }[]).map((m) => m.text);
  };

  it('holds a conversation whose middle the greeter leads, each turn streamed with a push config registered', async () => {
    deskLlm.reply('start flow greet_by_greeter', '');
    greeterLlm.reply('start flow greet', 'set slot name Flo');

    expect(await say('Please have someone greet me')).toEqual(['What is your name?']);
    const answer = await say('Flo');
    expect(answer).toEqual([
      expect.stringContaining('Done, Flo.'),
      'Back at the front desk.',
      'Can I help you with anything else?',
    ]);

    const methods = sent.flatMap((body) => {
      try {
        return [(JSON.parse(body) as { method?: string }).method ?? ''];
      } catch {
        return [];
      }
    });
    expect(methods.filter((m) => m === 'SendStreamingMessage')).toHaveLength(2);
    expect(sent.filter((body) => body.includes('"taskPushNotificationConfig"'))).toHaveLength(2);
    const tracker = (await (await fetch(`${desk.url}/conversations/visitor/tracker`)).json()) as {
      events: { event: string; agent_id?: string }[];
    };
    expect(tracker.events.filter((e) => e.event.startsWith('agent_')).map((e) => e.event)).toEqual([
      'agent_started',
      'agent_completed',
    ]);
  });
});
