import * as z from 'zod';
import { WireError } from '../resilience/index.js';
import type { Runtime } from '../runtime/index.js';
import type { ConversationTarget } from './runner.js';
import { TurnEvent } from './turnEvents.js';

const TrackerPage = z
  .object({
    events: z.array(TurnEvent),
    truncated: z.boolean().optional(),
    next_after: z.number().optional(),
  })
  .loose();
const Replies = z.array(z.unknown());

/** The channel test conversations run on: Rasa's REST channel. */
const CHANNEL = 'rest';

/** The local runtime refused a request of the test run. Code `TEST_TARGET_FAILED`. */
export class TargetRequestError extends WireError {
  override readonly name = 'TargetRequestError';
  override readonly code = 'TEST_TARGET_FAILED';
}

/**
 * The assistant on a running local stack: messages go through the REST webhook (which answers
 * once the turn settles) and each turn's events are read back from the tracker; fixtures are a
 * `set_slots` job run by the runtime itself, so they are `slot` events of the conversation
 * before its first message, and no user message.
 */
export class LocalStackTarget implements ConversationTarget {
  /** Per sender, how many of its events were read so far. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly options: {
      readonly url: string;
      readonly token: string;
      readonly runtime: Runtime;
      readonly signal: AbortSignal;
    },
  ) {}

  async setSlots(sender: string, slots: Readonly<Record<string, unknown>>): Promise<TurnEvent[]> {
    const id = `fixtures-${sender}`;
    await this.options.runtime.processJobRetryingRaces(
      {
        type: 'set_slots',
        id,
        conversation_id: sender,
        turn_id: id,
        slots: { ...slots },
        channel: CHANNEL,
      },
      this.options.signal,
    );
    return this.newEvents(sender);
  }

  async send(
    sender: string,
    text: string,
    metadata: Readonly<Record<string, unknown>> | undefined,
  ): Promise<TurnEvent[]> {
    const response = await fetch(`${this.options.url}/webhooks/rest/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${this.options.token}`,
      },
      body: JSON.stringify({ sender, message: text, ...(metadata ? { metadata } : {}) }),
      signal: this.options.signal,
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const reason = (body as { error?: unknown } | undefined)?.error;
      throw new TargetRequestError(
        `the REST webhook answered ${response.status}${typeof reason === 'string' ? `: ${reason}` : ''}`,
      );
    }
    Replies.parse(body);
    return this.newEvents(sender);
  }

  /** The conversation's events since the last read, page by page. */
  private async newEvents(sender: string): Promise<TurnEvent[]> {
    const events: TurnEvent[] = [];
    for (;;) {
      const count = this.seen.get(sender) ?? 0;
      const query = count > 0 ? `?after=${count - 1}` : '';
      const response = await fetch(
        `${this.options.url}/conversations/${encodeURIComponent(sender)}/tracker${query}`,
        { headers: { authorization: `Bearer ${this.options.token}` }, signal: this.options.signal },
      );
      if (!response.ok) throw new TargetRequestError(`the tracker answered ${response.status}`);
      const page = TrackerPage.parse(await response.json());
      events.push(...page.events);
      this.seen.set(sender, count + page.events.length);
      if (!page.truncated) return events;
    }
  }
}
