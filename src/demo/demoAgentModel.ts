import { setTimeout as sleep } from 'node:timers/promises';
import type {
  ToolCall,
  ToolChatMessage,
  ToolChatPort,
  ToolChatRequest,
  ToolChatResponse,
} from '../llm/index.js';

/** The pause between two chunks of streamed text. */
const DELTA_PAUSE_MS = 8;

/**
 * A scripted stand-in for a tool-calling model, used when no model is configured: it plays the
 * example's two ReAct agents by rules, from the tools it is offered and the conversation. The
 * research agent searches the car catalog and describes models; the test-drive agent finds a
 * dealer, offers its free slots and fills `dealer_name` and `appointment_time`. It understands
 * the README's demo conversation and little else.
 */
export class DemoAgentModel implements ToolChatPort {
  private calls = 0;
  /** Makes call ids unique across processes too: a run may go on in another one. */
  private readonly prefix = `demo_${Date.now().toString(36)}`;

  /** Answers as the agent would; text goes to `onTextDelta` a few words at a time, as a model streams it. */
  async chat(request: ToolChatRequest): Promise<ToolChatResponse> {
    const answer = this.answer(request);
    const onDelta = request.onTextDelta;
    if (onDelta && answer.content) {
      for (const chunk of answer.content.match(/(\S+\s*){1,3}/g) ?? []) {
        if (request.signal?.aborted) break;
        onDelta(chunk);
        await sleep(DELTA_PAUSE_MS);
      }
    }
    return answer;
  }

  private answer(request: ToolChatRequest): ToolChatResponse {
    const tools = new Set((request.tools ?? []).map((t) => t.function.name));
    if (request.toolChoice === 'none') return text('Happy to help. Enjoy the drive!');
    const last = lastTurn(request.messages);
    if (tools.has('search_cars')) return this.research(last);
    if (tools.has('set_slot_appointment_time'))
      return this.testDrive(last, request.messages, tools);
    return text(
      'Without a language model I can only play the example assistant’s agents. Set OPENAI_API_KEY to use a real model.',
    );
  }

  private research(last: Turn): ToolChatResponse {
    if (last.kind === 'tool') {
      const result = parseJson(last.content);
      if (Array.isArray(result?.cars)) {
        const cars = result.cars as { model: string; body: string; fuel: string; price: number }[];
        if (cars.length === 0)
          return text('Nothing in the catalog matches that. Shall I widen the search?');
        const list = cars
          .map((c) => `${c.model} (${c.fuel} ${c.body}, ${price(c.price)})`)
          .join('; ');
        return text(`Here are some options: ${list}. Would you like the details of one of them?`);
      }
      if (typeof result?.model === 'string') {
        const car = result as {
          model: string;
          price: number;
          rangeKm: number;
          seats: number;
          rating: number;
          review: string;
        };
        return text(
          `The ${car.model} costs ${price(car.price)}, goes ${car.rangeKm} km on a charge or tank, seats ${car.seats} and is rated ${car.rating} of 5. Reviewers say: ${car.review} Anything else you would like to know?`,
        );
      }
      return text(`The catalog answered: ${last.content.slice(0, 300)}`);
    }
    const message = last.content;
    if (/\b(thanks|thank you|that'?s all|no more|bye)\b/i.test(message)) {
      return this.tools('You are welcome. Enjoy finding your car!', [
        { name: 'task_completed', arguments: {} },
      ]);
    }
    const about =
      /\b(?:about|details (?:of|on|for)|tell me more about)\s+(?:the\s+)?([A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)*)/.exec(
        message,
      );
    if (about?.[1])
      return this.tools('Let me pull that up.', [
        { name: 'get_car_details', arguments: { model: about[1] } },
      ]);
    const args: Record<string, unknown> = {};
    const body = /\b(hatchback|sedan|suv|estate)\b/i.exec(message)?.[1];
    if (body) args.body = body.toLowerCase();
    const fuel = /\b(petrol|hybrid|electric|ev)\b/i.exec(message)?.[1]?.toLowerCase();
    if (fuel) args.fuel = fuel === 'ev' ? 'electric' : fuel;
    const budget = /(\d[\d,.]*)\s*(k\b)?/i.exec(message);
    if (budget?.[1]) {
      const amount = Number(budget[1].replaceAll(',', '')) * (budget[2] ? 1000 : 1);
      if (Number.isFinite(amount) && amount > 0) args.max_price = amount;
    }
    return this.tools('Let me check the catalog.', [{ name: 'search_cars', arguments: args }]);
  }

  private testDrive(
    last: Turn,
    messages: readonly ToolChatMessage[],
    tools: Set<string>,
  ): ToolChatResponse {
    if (last.kind === 'tool') {
      const result = parseJson(last.content);
      if (Array.isArray(result?.dealers)) {
        const dealer = (result.dealers as { name: string }[])[0];
        if (!dealer)
          return text(
            'No dealer has that car for a test drive, I am afraid. Another model, perhaps?',
          );
        return this.tools('', [{ name: 'list_free_slots', arguments: { dealer: dealer.name } }]);
      }
      if (Array.isArray(result?.slots) && typeof result.dealer === 'string') {
        const slots = result.slots as string[];
        return text(
          `${result.dealer} has free test-drive slots on ${slots.join(', ')}. Which suits you?`,
        );
      }
      return text('Which time would suit you?');
    }
    const offer = [...messages]
      .reverse()
      .find((m) => m.role === 'assistant' && /has free test-drive slots on/.test(m.content));
    if (offer) {
      const [, dealer = '', list = ''] =
        /^(.*) has free test-drive slots on (.*)\. Which/.exec(offer.content) ?? [];
      const chosen = list.split(', ').find((slot) => matchesSlot(last.content, slot));
      if (chosen && dealer) {
        return this.tools('', [
          { name: 'set_slot_dealer_name', arguments: { slot_value: dealer } },
          { name: 'set_slot_appointment_time', arguments: { slot_value: chosen } },
        ]);
      }
      return text(`Which of these suits you: ${list}?`);
    }
    const city = /\bin\s+([A-Z][a-zA-Z]+)/.exec(last.content)?.[1];
    const args = city ? { city } : {};
    if (!tools.has('find_dealers')) return text('Which dealer would you like to visit?');
    return this.tools('Let me find a dealer for you.', [{ name: 'find_dealers', arguments: args }]);
  }

  private tools(
    content: string,
    calls: { name: string; arguments: Record<string, unknown> }[],
  ): ToolChatResponse {
    const toolCalls: ToolCall[] = calls.map((call) => ({
      id: `${this.prefix}_${++this.calls}`,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    }));
    return { content, toolCalls };
  }
}

type Turn = { kind: 'user' | 'tool'; content: string };

/** The latest user message or tool result. */
function lastTurn(messages: readonly ToolChatMessage[]): Turn {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === 'tool') return { kind: 'tool', content: message.content };
    if (message?.role === 'user') return { kind: 'user', content: message.content };
  }
  return { kind: 'user', content: '' };
}

/** Whether the user's words name a slot such as "Monday 10:00" ("monday at 10", "10:00 on Monday"). */
function matchesSlot(words: string, slot: string): boolean {
  const [day = '', time = ''] = slot.toLowerCase().split(' ');
  const said = words.toLowerCase();
  const hour = time.split(':')[0] ?? '';
  return (
    said.includes(day) && (said.includes(time) || new RegExp(`\\b0?${Number(hour)}\\b`).test(said))
  );
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(
      text.split('\n').find((line) => line.trim().startsWith('{')) ?? text,
    );
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function price(value: number): string {
  return `€${value.toLocaleString('en-US')}`;
}

function text(content: string): ToolChatResponse {
  return { content, toolCalls: [] };
}
