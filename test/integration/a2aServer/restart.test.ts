import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../../src/local/index.js';
import {
  a2aStack,
  asTask,
  sendRequest,
  switchboardClient,
  TaskState,
  textsOf,
  userText,
} from '../../helpers/a2aClient.js';
import { ScriptedLlm } from '../../helpers/dialogue.js';
import { type PushReceiver, startPushReceiver } from '../../helpers/pushReceiver.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { waitFor } from '../../helpers/waitFor.js';

const SERVER = '  description: Greets people.\n';

describe('an A2A task across a restart of the local stack with --state', () => {
  let receiver: PushReceiver;
  let stack: LocalStack | undefined;

  beforeAll(async () => {
    receiver = await startPushReceiver();
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('goes on where it stopped: the task, its turn and its push config survive', async () => {
    const dataDir = await tempDir('switchboard-a2a-state-');
    const llm = new ScriptedLlm(['start flow greet', 'set slot name Ed']);
    stack = await a2aStack(SERVER, { llm, dataDir });
    const before = await switchboardClient(stack.url, '1.0');
    const push = { url: `${receiver.url}/restart`, token: 'restart-token' };
    const asked = asTask(await before.sendMessage(sendRequest(userText('Greet me'), { push })));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    await stack.stop();

    stack = await a2aStack(SERVER, { llm, dataDir });
    const after = await switchboardClient(stack.url, '1.0');
    expect((await after.getTask({ tenant: '', id: asked.id })).status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    const done = asTask(
      await after.sendMessage(
        sendRequest(userText('Ed', { contextId: asked.contextId, taskId: asked.id })),
      ),
    );
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textsOf(done.status?.message).join(' ')).toContain('Done, Ed.');
    await waitFor(
      async () =>
        receiver.received.some((r) => JSON.stringify(r.body).includes('TASK_STATE_COMPLETED'))
          ? true
          : undefined,
      { description: 'the notification of the completed task, after the restart' },
    );
    expect(
      receiver.received.every((r) => r.headers['x-a2a-notification-token'] === push.token),
    ).toBe(true);
  });
});
