import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantFrom } from '../../helpers/dialogue.js';
import { type Emulators, startEmulators } from '../../helpers/emulators.js';
import { BASE_PROJECT } from '../../helpers/project.js';
import { sayThroughWebhook, testRuntime } from '../../helpers/runtime.js';

let emulators: Emulators;
beforeAll(async () => {
  emulators = await startEmulators({ visibilityTimeoutSeconds: 1 });
}, 30_000);
afterAll(async () => {
  await emulators?.close();
});

const say = sayThroughWebhook;

describe('conversation sessions through the runtime', () => {
  it('start anew when the user writes again after the expiration time', async () => {
    let clock = Date.now();
    const assistant = await assistantFrom({
      ...BASE_PROJECT,
      'domain.yml': `session_config:\n  session_expiration_time: 5\n  carry_over_slots_to_new_session: false\n${BASE_PROJECT['domain.yml']}`,
    });
    const rt = await testRuntime(emulators, assistant, { now: () => clock, replyWaitMs: 20_000 });
    rt.llm.reply('set slot confirmed true');
    await say(rt, 'sam', 'I confirm');
    rt.llm.reply('start flow greet');
    expect(await say(rt, 'sam', 'hi')).toEqual(['What is your name?']);

    clock += 6 * 60_000;
    rt.llm.reply('offtopic reply');
    await say(rt, 'sam', 'hello again');

    const response = await rt.http.handle({
      method: 'GET',
      path: '/conversations/sam/tracker',
      headers: {},
    });
    const tracker = response.body as {
      slots: Record<string, unknown>;
      stack: unknown[];
      events: { event: string; flow_id?: string; text?: string; timestamp: number }[];
      latest_message: { text: string };
    };
    const names = tracker.events.map((e) => (e.flow_id ? `${e.event}:${e.flow_id}` : e.event));
    const again = tracker.events.findIndex((e) => e.event === 'user' && e.text === 'hello again');
    expect(names.filter((n) => n === 'session_started')).toHaveLength(2);
    expect(names.slice(again - 4, again)).toEqual([
      'stack',
      'flow_cancelled:greet',
      'session_started',
      'slot',
    ]);
    expect(names.slice(again)).toContain('flow_started:pattern_session_start');
    expect(tracker.slots.confirmed).toBeNull();
    expect(tracker.stack).toEqual([]);
    expect(tracker.latest_message.text).toBe('hello again');
    // Each event carries the runtime clock's time: the new session's, six minutes on.
    const first = tracker.events[0]?.timestamp ?? Number.POSITIVE_INFINITY;
    expect(tracker.events.at(-1)?.timestamp).toBeGreaterThanOrEqual(first + 6 * 60);
  });
});
