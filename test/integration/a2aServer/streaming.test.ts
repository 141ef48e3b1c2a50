import type { StreamResponse } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  a2aStackSuite,
  asTask,
  type ProtocolVersion,
  sendRequest,
  switchboardClient,
  TaskState,
  textsOf,
  userText,
} from '../../helpers/a2aClient.js';
import { startTestA2AAgent, type TestA2AAgent } from '../../helpers/a2aTestAgent.js';

/** A stream's events, each as its kind and the state or artifact it carries. */
async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function summary(event: StreamResponse): string {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'task':
      return `task ${TaskState[payload.value.status?.state ?? 0]}`;
    case 'statusUpdate':
      return `status ${TaskState[payload.value.status?.state ?? 0]} ${textsOf(payload.value.status?.message).join(' ')}`.trim();
    case 'artifactUpdate':
      return `artifact ${payload.value.artifact?.name}`;
    default:
      return String(payload?.$case);
  }
}

describe('streaming from the A2A server on the local stack', () => {
  const suite = a2aStackSuite('  description: Greets people.\n');
  const { llm } = suite;

  for (const version of ['1.0', '0.3'] as ProtocolVersion[]) {
    it(`streams each turn of a task to its end, over A2A ${version}`, async () => {
      const client = await switchboardClient(suite.stack.url, version);
      llm.reply('start flow greet', 'set slot name Cy');
      const asked = await collect(client.sendMessageStream(sendRequest(userText('Greet me'))));
      expect(asked.map(summary)).toEqual([
        'task TASK_STATE_SUBMITTED',
        'status TASK_STATE_INPUT_REQUIRED What is your name?',
      ]);
      const task = asked[0]?.payload?.$case === 'task' ? asked[0].payload.value : undefined;
      const ids = { contextId: task?.contextId ?? '', taskId: task?.id ?? '' };

      const done = await collect(client.sendMessageStream(sendRequest(userText('Cy', ids))));
      expect(done.map(summary)).toEqual([
        'task TASK_STATE_WORKING',
        'artifact text',
        'artifact slots',
        expect.stringMatching(/^status TASK_STATE_COMPLETED Done, Cy\./),
      ]);
    });
  }

  it('lets a caller subscribe to a task it sent without waiting, until the turn is over', async () => {
    const client = await switchboardClient(suite.stack.url, '1.0');
    llm.reply('start flow greet');
    const sent = await client.sendMessage(
      sendRequest(userText('Greet me later'), { returnImmediately: true }),
    );
    const events = await collect(client.resubscribeTask({ tenant: '', id: asTask(sent).id }));
    expect(events[0]?.payload?.$case).toBe('task');
    const last = events.at(-1)?.payload;
    const state =
      last?.$case === 'task'
        ? last.value.status?.state
        : last?.$case === 'statusUpdate'
          ? last.value.status?.state
          : undefined;
    expect(state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });
});

describe('an A2A task whose flow runs a sub agent', () => {
  let agent: TestA2AAgent;
  beforeAll(async () => {
    agent = await startTestA2AAgent({ versions: '1.0' });
  });
  afterAll(async () => {
    await agent?.close();
  });
  // The project names the agent's card once the agent listens.
  const suite = a2aStackSuite('  description: Checks the stock.\n', {
    files: () => ({
      'data/flows.yml': `flows:
  check_stock:
    description: Check the stock with the dealership.
    steps:
      - call: stock
`,
      'sub_agents/stock/config.yml': `agent:
  name: stock
  protocol: A2A
  description: Checks the stock.
configuration:
  agent_card: ${agent.cardUrl}
`,
    }),
  });

  it('streams the sub agent’s messages as working updates, then the completed task', async () => {
    const client = await switchboardClient(suite.stack.url, '1.0');
    suite.llm.reply('start flow check_stock');
    const seen: string[] = [];
    for await (const event of client.sendMessageStream(sendRequest(userText('long check')))) {
      seen.push(summary(event));
      // The agent finishes once the stream has shown that it works.
      if (seen.at(-1) === 'status TASK_STATE_WORKING Checking the stock…') agent.finishLong();
    }
    expect(seen).toEqual([
      'task TASK_STATE_SUBMITTED',
      'status TASK_STATE_WORKING',
      'status TASK_STATE_WORKING Checking the stock…',
      'artifact text',
      expect.stringMatching(/^status TASK_STATE_COMPLETED The car is in stock\./),
    ]);
  });
});
