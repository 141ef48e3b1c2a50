import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asTask, sendRequest, switchboardClient, userText } from '../../helpers/a2aClient.js';
import { startTestA2AAgent, type TestA2AAgent } from '../../helpers/a2aTestAgent.js';
import { type PushReceiver, startPushReceiver } from '../../helpers/pushReceiver.js';
import { waitFor } from '../../helpers/waitFor.js';

describe('the push notifications of the demo agents', () => {
  let agent: TestA2AAgent;
  let ended: PushReceiver;
  let listening: PushReceiver;

  beforeAll(async () => {
    agent = await startTestA2AAgent();
    ended = await startPushReceiver();
    listening = await startPushReceiver();
    ended.answerWith({ accepted: false, reason: 'the run is over' });
  });
  afterAll(async () => {
    await agent?.close();
    await Promise.all([ended?.close(), listening?.close()]);
  });

  it('stop going to a receiver whose run is over, and go on to the others', async () => {
    const client = await switchboardClient(agent.url, '1.0');
    const push = { url: `${ended.url}/run`, token: 'ended-run-token' };
    const task = asTask(
      await client.sendMessage(sendRequest(userText('long'), { push, returnImmediately: true })),
    );
    await client.createTaskPushNotificationConfig({
      tenant: '',
      taskId: task.id,
      id: 'listening',
      url: `${listening.url}/run`,
      token: 'listening-token',
      authentication: undefined,
    });
    await waitFor(async () => (ended.received.length > 0 ? true : undefined), {
      description: 'the first notification',
    });
    agent.finishLong();
    // The configs get each update in turn: once the listening one has the last, so had the other.
    await waitFor(
      async () =>
        listening.received.some((r) => JSON.stringify(r.body).includes('TASK_STATE_COMPLETED'))
          ? true
          : undefined,
      { description: 'the listening receiver to hear the task completed' },
    );
    expect(ended.received).toHaveLength(1);
    expect(ended.received[0]?.headers['x-a2a-notification-token']).toBe(push.token);
  });
});
