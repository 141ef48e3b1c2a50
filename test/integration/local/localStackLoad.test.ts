/**
 * A bounded load on the local stack: many conversations at once, each sending its messages
 * without waiting for the answers, so that the jobs of every conversation are queued together
 * and the stack's job slots take them side by side. Each conversation must see its messages in
 * the order sent, each handled exactly once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../../../src/local/index.js';
import { assistantFrom } from '../../helpers/dialogue.js';
import { waitFor } from '../../helpers/waitFor.js';

const CONVERSATIONS = 24;
const MESSAGES = 6;

const PROJECT = {
  'domain.yml': 'responses:\n  utter_noted:\n    - text: Noted.\n',
  'data/flows.yml':
    'flows:\n  note:\n    description: Note what the user said.\n    steps:\n      - action: utter_noted\n',
};

/** A number that follows from `text` alone. */
function hash(text: string): number {
  let h = 0;
  for (const char of text) h = (h * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return h;
}

interface TrackerEvent {
  readonly event: string;
  readonly text?: string;
}

describe('the local stack under a bounded load', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startLocalStack({
      assistant: await assistantFrom(PROJECT),
      port: 0,
      env: {},
      // The model takes a little longer for some messages than for others (0 to 32 ms, by the
      // message), as a real one would: jobs of one conversation that ran side by side would
      // then finish out of order.
      llm: {
        complete: async (request) => {
          const text = request.messages.map((m) => m.content).join('');
          await sleep((hash(text) % 5) * 8);
          return { content: 'start flow note' };
        },
      },
      replyWaitMs: 0,
      announce: () => {},
    });
  }, 30_000);
  afterAll(async () => {
    await stack?.stop();
  });

  const send = async (sender: string, message: string) => {
    const response = await fetch(`${stack.url}/webhooks/rest/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender, message }),
    });
    expect(response.status).toBe(200);
    await response.body?.cancel();
  };
  const events = async (sender: string): Promise<TrackerEvent[]> => {
    const response = await fetch(`${stack.url}/conversations/${sender}/tracker`);
    return ((await response.json()) as { events: TrackerEvent[] }).events;
  };

  it(`keeps the order and handles each message once in ${CONVERSATIONS} conversations at once`, async () => {
    const senders = Array.from({ length: CONVERSATIONS }, (_, c) => `load-${c}`);
    const sent = (sender: string) =>
      Array.from({ length: MESSAGES }, (_, m) => `${sender} message ${m}`);

    // Every conversation sends all its messages, one request after the other, at the same time.
    await Promise.all(
      senders.map(async (sender) => {
        for (const message of sent(sender)) await send(sender, message);
      }),
    );
    const noted = async (sender: string) =>
      (await events(sender)).filter((e) => e.event === 'bot' && e.text === 'Noted.').length;
    await waitFor(async () => (await Promise.all(senders.map(noted))).every((n) => n >= MESSAGES), {
      timeoutMs: 60_000,
      intervalMs: 200,
      description: 'every message of every conversation noted',
    });

    for (const sender of senders) {
      const log = await events(sender);
      const users = log.filter((e) => e.event === 'user').map((e) => e.text);
      expect(users, sender).toEqual(sent(sender));
      // Each message got its answer once, before the next message was handled.
      const turns = log
        .filter((e) => e.event === 'user' || (e.event === 'bot' && e.text === 'Noted.'))
        .map((e) => e.event);
      expect(turns, sender).toEqual(Array.from({ length: MESSAGES }, () => ['user', 'bot']).flat());
    }
  }, 90_000);
});
