import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../../../src/local/index.js';
import { assistantFrom, ScriptedLlm } from '../../helpers/dialogue.js';

const PROJECT = {
  'credentials.yml':
    'rest:\nsocketio:\n  user_message_evt: user_uttered\n  bot_message_evt: bot_uttered\n  session_persistence: true\n',
  'domain.yml': `slots:
  name:
    type: text
responses:
  utter_ask_name:
    - text: Your name?
      buttons:
        - title: Ada
          payload: /SetSlots(name=Ada)
  utter_hello:
    - text: Hello {name}!
`,
  'data/flows.yml': `flows:
  greet:
    description: Greets.
    steps:
      - collect: name
      - action: utter_hello
`,
};

const TOKEN = 'browser-token';
const auth = { authorization: `Bearer ${TOKEN}` };

/** The next `event` the socket receives. */
function next<T>(socket: Socket, event: string): Promise<T> {
  return new Promise((resolve) => socket.once(event, resolve));
}

describe('the local stack’s browser channel', () => {
  let stack: LocalStack;
  const llm = new ScriptedLlm();
  const sockets: Socket[] = [];

  beforeAll(async () => {
    stack = await startLocalStack({
      assistant: await assistantFrom(PROJECT),
      port: 0,
      env: { SWITCHBOARD_REST_TOKEN: TOKEN },
      llm,
      announce: () => {},
    });
  }, 30_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack?.stop();
  });

  const connect = (token: string | undefined = TOKEN) => {
    const socket = io(stack.url, {
      transports: ['websocket'],
      reconnection: false,
      ...(token ? { auth: { token } } : {}),
    });
    sockets.push(socket);
    return socket;
  };

  it('speaks Rasa’s socket.io protocol: a session, user_uttered, bot_uttered with quick replies', async () => {
    const socket = connect();
    const confirmed = next<string>(socket, 'session_confirm');
    socket.emit('session_request', { session_id: null });
    const session = await confirmed;
    expect(session).toMatch(/^[\w-]+$/);
    llm.reply('start flow greet');
    const answer = next<Record<string, unknown>>(socket, 'bot_uttered');
    socket.emit('user_uttered', { message: 'hi', session_id: session });
    expect(await answer).toEqual({
      text: 'Your name?',
      quick_replies: [{ content_type: 'text', title: 'Ada', payload: '/SetSlots(name=Ada)' }],
    });
    const hello = next<Record<string, unknown>>(socket, 'bot_uttered');
    socket.emit('user_uttered', { message: '/SetSlots(name=Ada)', session_id: session });
    expect(await hello).toEqual({ text: 'Hello Ada!' });
  });

  it('keeps a session the client asks for again when session_persistence is on', async () => {
    const socket = connect();
    const confirmed = next<string>(socket, 'session_confirm');
    socket.emit('session_request', { session_id: 'kept-session-1' });
    expect(await confirmed).toBe('kept-session-1');
  });

  it('never lets a client join a platform’s conversation, and refuses one without the token', async () => {
    const socket = connect();
    const confirmed = next<string>(socket, 'session_confirm');
    socket.emit('session_request', { session_id: 'slack:D111:U222' });
    expect(await confirmed).not.toBe('slack:D111:U222');
    const refused = connect('wrong-token');
    const error = await next<Error>(refused, 'connect_error');
    expect(error.message).toMatch(/token/);
  });

  it('takes a message by POST and streams the bot’s messages as server-sent events', async () => {
    const controller = new AbortController();
    const response = await fetch(`${stack.url}/webhooks/socketio/stream/sse-user`, {
      signal: controller.signal,
      headers: auth,
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${pattern}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await until(/: following/);
    llm.reply('start flow greet');
    const posted = await fetch(`${stack.url}/webhooks/socketio/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ sender: 'sse-user', message: 'hi' }),
    });
    expect(posted.status).toBe(202);
    await until(/event: message\ndata: .*Your name\?/);
    controller.abort();
  });
});
