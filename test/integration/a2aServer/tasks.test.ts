import { describe, expect, it } from 'vitest';
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
import { waitFor } from '../../helpers/waitFor.js';

const KEY = 'a2a-key-4711';
const A2A_SERVER = `  description: Greets people.
  auth:
    api_key: \${A2A_KEY}
`;

describe('the A2A server on the local stack, driven by the SDK client', () => {
  const suite = a2aStackSuite(A2A_SERVER, {
    env: { A2A_KEY: KEY },
    files: { '.env': `A2A_KEY=${KEY}\n` },
  });
  const { llm } = suite;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${suite.stack.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
      body: JSON.stringify(body),
    });

  for (const version of ['1.0', '0.3'] as ProtocolVersion[]) {
    it(`asks for input, then completes the task with the slots and texts as artifacts, over A2A ${version}`, async () => {
      const client = await switchboardClient(suite.stack.url, version, { 'X-API-Key': KEY });
      llm.reply('start flow greet', 'set slot name Ada');

      const asked = asTask(await client.sendMessage(sendRequest(userText('Please greet me'))));
      expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(textsOf(asked.status?.message)).toEqual(['What is your name?']);
      expect(asked.contextId).not.toBe('');

      const ids = { contextId: asked.contextId, taskId: asked.id };
      const done = asTask(await client.sendMessage(sendRequest(userText('Ada', ids))));
      expect(done.id).toBe(asked.id);
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const artifacts = Object.fromEntries(done.artifacts.map((a) => [a.name, a.parts]));
      expect(artifacts.text?.map((p) => p.content?.value)).toContain('Done, Ada.');
      expect(artifacts.slots?.[0]?.content).toEqual({ $case: 'data', value: { name: 'Ada' } });

      const read = await client.getTask({ tenant: '', id: asked.id });
      expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(read.history.map((m) => textsOf(m).join(' '))).toEqual([
        'Please greet me',
        'What is your name?',
        'Ada',
        expect.stringContaining('Done, Ada.'),
      ]);
    });
  }

  it('refuses calls without the API key or with another, saying why, and runs nothing', async () => {
    const send = {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    };
    const prompts = llm.prompts.length;
    const none = await post(send);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      error: 'no credentials: send an API key in X-API-Key',
    });
    const wrong = await post(send, { 'x-api-key': 'guessed' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'the API key is wrong' });
    expect(llm.prompts.length).toBe(prompts);
  });

  it('answers a body that is not JSON with JSON-RPC’s parse error, on both versions', async () => {
    for (const version of ['1.0', '0.3']) {
      const answer = await fetch(`${suite.stack.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': version, 'x-api-key': KEY },
        body: '{"jsonrpc": "2.0", "id": 7, "method": ',
      });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringMatching(/^the body is not JSON: /) },
      });
    }
  });

  it('lists the tasks of a context, newest first, and tells apart a task that is over', async () => {
    const client = await switchboardClient(suite.stack.url, '1.0', { 'X-API-Key': KEY });
    llm.reply('start flow greet', 'set slot name Bo', 'start flow greet');
    const first = asTask(await client.sendMessage(sendRequest(userText('Greet me'))));
    const ids = { contextId: first.contextId, taskId: first.id };
    await client.sendMessage(sendRequest(userText('Bo', ids)));
    const second = asTask(
      await client.sendMessage(sendRequest(userText('Again', { contextId: first.contextId }))),
    );
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);

    const listed = await client.listTasks({
      tenant: '',
      contextId: first.contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks.map((t) => [t.id, t.status?.state])).toEqual([
      [second.id, TaskState.TASK_STATE_INPUT_REQUIRED],
      [first.id, TaskState.TASK_STATE_COMPLETED],
    ]);
    await expect(client.sendMessage(sendRequest(userText('Bo again', ids)))).rejects.toThrow(
      /takes no more messages/,
    );
    await expect(client.getTask({ tenant: '', id: 'nothing~a2a' })).rejects.toThrow(/not found/);
  });

  it('answers at once when asked to, and the task is read later; a repeated message joins its turn', async () => {
    const client = await switchboardClient(suite.stack.url, '1.0', { 'X-API-Key': KEY });
    llm.reply('start flow greet');
    const message = userText('Greet me, quickly');
    const accepted = asTask(
      await client.sendMessage(sendRequest(message, { returnImmediately: true })),
    );
    expect(accepted.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    const again = asTask(await client.sendMessage(sendRequest(message)));
    expect(again.id).toBe(accepted.id);
    expect(again.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(llm.remaining).toBe(0);
  });

  it('starts one task for a message sent twice at once', async () => {
    const client = await switchboardClient(suite.stack.url, '1.0', { 'X-API-Key': KEY });
    llm.reply('start flow greet');
    const message = userText('Greet me, twice');
    const [one, two] = await Promise.all(
      [1, 2].map(async () =>
        asTask(await client.sendMessage(sendRequest(message, { returnImmediately: true }))),
      ),
    );
    expect(two?.id).toBe(one?.id);
    const done = await waitFor(async () => {
      const task = await client.getTask({ tenant: '', id: one?.id ?? '' });
      return task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED ? task : undefined;
    });
    expect(textsOf(done.status?.message)).toEqual(['What is your name?']);
    expect(llm.remaining).toBe(0);
  });

  it('keeps a large message in the task history as its text, while the turn gets it whole', async () => {
    const client = await switchboardClient(suite.stack.url, '1.0', { 'X-API-Key': KEY });
    llm.reply('start flow greet');
    const message = userText('Greet me');
    const catalog = { cars: Array.from({ length: 1_000 }, (_, i) => `car number ${i}`) };
    message.parts.push({
      content: { $case: 'data', value: catalog },
      metadata: undefined,
      filename: '',
      mediaType: '',
    });
    const asked = asTask(await client.sendMessage(sendRequest(message)));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(asked.history[0]?.parts.map((p) => p.content)).toEqual([
      { $case: 'text', value: 'Greet me' },
    ]);
    const tracker = (await (
      await fetch(`${suite.stack.url}/conversations/a2a:${asked.contextId}/tracker`)
    ).json()) as { latest_message?: { metadata?: { a2a?: { data?: unknown[] } } } };
    expect(tracker.latest_message?.metadata?.a2a?.data).toEqual([catalog]);
  });

  it('takes a message again after refusing it, and runs its turn', async () => {
    const client = await switchboardClient(suite.stack.url, '1.0', { 'X-API-Key': KEY });
    llm.reply('start flow greet', 'set slot name Ada');
    const asked = asTask(await client.sendMessage(sendRequest(userText('Greet me'))));
    const answer = userText('Ada', { contextId: asked.contextId, taskId: asked.id });
    await expect(
      client.sendMessage(sendRequest(answer, { push: { url: 'ftp://receiver.example/push' } })),
    ).rejects.toThrow(/must be an http\(s\) URL/);
    const done = asTask(await client.sendMessage(sendRequest(answer)));
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(llm.remaining).toBe(0);
  });
});

describe('cancelling tasks of the A2A server', () => {
  const suite = a2aStackSuite('  description: Greets people.\n');
  const { llm } = suite;

  for (const version of ['1.0', '0.3'] as ProtocolVersion[]) {
    it(`cancels the flow of a task that waits for input, over A2A ${version}`, async () => {
      const client = await switchboardClient(suite.stack.url, version);
      llm.reply('start flow greet');
      const asked = asTask(await client.sendMessage(sendRequest(userText('Greet me'))));
      expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

      const cancelled = await client.cancelTask({ tenant: '', id: asked.id, metadata: undefined });
      expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      expect((await client.getTask({ tenant: '', id: asked.id })).status?.state).toBe(
        TaskState.TASK_STATE_CANCELED,
      );
      const sender = encodeURIComponent(`a2a:${asked.contextId}`);
      await waitFor(
        async () => {
          const tracker = (await (
            await fetch(`${suite.stack.url}/conversations/${sender}/tracker`)
          ).json()) as {
            events: { event: string; flow_id?: string }[];
          };
          return tracker.events.some((e) => e.event === 'flow_cancelled' && e.flow_id === 'greet')
            ? true
            : undefined;
        },
        { description: 'the flow to be cancelled' },
      );
      await expect(
        client.cancelTask({ tenant: '', id: asked.id, metadata: undefined }),
      ).rejects.toThrow(/cannot be canceled/);
    });
  }
});

describe('an A2A server that holds at most two contexts', () => {
  const suite = a2aStackSuite('  description: Greets people.\n  max_contexts: 2\n');
  const { llm } = suite;

  it('closes the context opened longest ago when a third opens, failing its open task', async () => {
    const client = await switchboardClient(suite.stack.url, '1.0');
    const open = async (text: string) => {
      llm.reply('start flow greet');
      return asTask(await client.sendMessage(sendRequest(userText(text))));
    };
    const first = await open('Greet me, first');
    const second = await open('Greet me, second');
    await open('Greet me, third');
    const closed = await client.getTask({ tenant: '', id: first.id });
    expect(closed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textsOf(closed.status?.message)).toEqual([
      'The context was closed: this agent holds at most 2 contexts.',
    ]);
    expect((await client.getTask({ tenant: '', id: second.id })).status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    llm.reply('set slot name Gus');
    const again = asTask(
      await client.sendMessage(sendRequest(userText('Gus', { contextId: first.contextId }))),
    );
    expect(again.contextId).toBe(first.contextId);
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect((await client.getTask({ tenant: '', id: second.id })).status?.state).toBe(
      TaskState.TASK_STATE_FAILED,
    );
  });
});
