import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  a2aStackSuite,
  asTask,
  type ProtocolVersion,
  sendRequest,
  switchboardClient,
  userText,
} from '../../helpers/a2aClient.js';
import { type PushReceiver, startPushReceiver } from '../../helpers/pushReceiver.js';
import { waitFor } from '../../helpers/waitFor.js';

/** The state each notification carries, in the shape of either version. */
function stateOf(body: Record<string, unknown>): string {
  const update = (body.statusUpdate ?? body) as { status?: { state?: string } };
  return update.status?.state ?? `(${Object.keys(body).join(',')})`;
}

describe('push notifications of the A2A server', () => {
  const suite = a2aStackSuite('  description: Greets people.\n');
  const { llm } = suite;
  let receiver: PushReceiver;

  beforeAll(async () => {
    receiver = await startPushReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  for (const [version, shape] of [
    ['1.0', 'application/a2a+json'],
    ['0.3', 'application/json'],
  ] as [ProtocolVersion, string][]) {
    it(`sends each update of a task to the URL a message registered, with its token, over A2A ${version}`, async () => {
      const client = await switchboardClient(suite.stack.url, version);
      const path = `/${version}`;
      llm.reply('start flow greet', 'set slot name Di');
      const push = { url: `${receiver.url}${path}`, token: `token-${version}` };
      const asked = asTask(
        await client.sendMessage(
          sendRequest(userText('Greet me'), { returnImmediately: true, push }),
        ),
      );
      const mine = () => receiver.received.filter((r) => r.path === path);
      await waitFor(async () => (mine().length >= 1 ? true : undefined), {
        description: 'the first notification',
      });
      await client.sendMessage(
        sendRequest(userText('Di', { contextId: asked.contextId, taskId: asked.id })),
      );
      await waitFor(
        async () =>
          mine().some((r) => /COMPLETED|completed/.test(stateOf(r.body))) ? true : undefined,
        {
          description: 'the notification of the completed task',
        },
      );
      const legacy = version === '0.3';
      const states = mine()
        .map((r) => stateOf(r.body))
        .filter((s) => !s.startsWith('('));
      expect(states).toEqual(
        legacy
          ? ['input-required', 'working', 'completed']
          : ['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED'],
      );
      for (const r of mine()) {
        expect(r.headers['x-a2a-notification-token']).toBe(push.token);
        expect(r.headers['content-type']).toContain(shape);
        expect(r.headers['x-a2a-notification-id']).toMatch(new RegExp(`^${asked.id}/\\d+$`));
      }
      const ids = mine().map((r) => r.headers['x-a2a-notification-id']);
      expect(new Set(ids).size).toBe(ids.length);
    });
  }

  it('keeps configs a caller creates, reads, lists and deletes, with their credentials', async () => {
    const client = await switchboardClient(suite.stack.url, '1.0');
    llm.reply('start flow greet');
    const task = asTask(await client.sendMessage(sendRequest(userText('Greet me again'))));
    const config = {
      tenant: '',
      taskId: task.id,
      id: 'mine',
      url: `${receiver.url}/crud`,
      token: '',
      authentication: { scheme: 'Bearer', credentials: 'receiver-secret' },
    };
    expect(await client.createTaskPushNotificationConfig(config)).toEqual(config);
    expect(
      await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'mine' }),
    ).toEqual(config);
    const listed = await client.listTaskPushNotificationConfig({
      tenant: '',
      taskId: task.id,
      pageSize: 0,
      pageToken: '',
    });
    expect(listed.configs.map((c) => c.id)).toEqual(['mine']);

    await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    await waitFor(
      async () => (receiver.received.some((r) => r.path === '/crud') ? true : undefined),
      {
        description: 'the notification of the cancel',
      },
    );
    const cancel = receiver.received.find((r) => r.path === '/crud');
    expect(cancel?.headers.authorization).toBe('Bearer receiver-secret');
    expect(stateOf(cancel?.body ?? {})).toBe('TASK_STATE_CANCELED');

    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'mine' });
    await expect(
      client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'mine' }),
    ).rejects.toThrow(/no push notification config mine/);
  });

  it('sends a notification again, with the same id, after its receiver failed', async () => {
    const client = await switchboardClient(suite.stack.url, '1.0');
    receiver.refuseNext(1, 503);
    llm.reply('start flow greet');
    const push = { url: `${receiver.url}/flaky`, token: 'flaky-token' };
    await client.sendMessage(sendRequest(userText('Greet me, flaky'), { push }));
    const flaky = () => receiver.received.filter((r) => r.path === '/flaky');
    await waitFor(async () => (flaky().length >= 2 ? true : undefined), {
      description: 'the notification sent again',
      timeoutMs: 15_000,
    });
    const [first, second] = flaky();
    expect(second?.headers['x-a2a-notification-id']).toBe(first?.headers['x-a2a-notification-id']);
    expect(second?.body).toEqual(first?.body);
  });
});
