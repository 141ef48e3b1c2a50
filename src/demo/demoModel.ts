import type { ChatMessage, LlmPort } from '../dialogue/index.js';
import type { ToolChatPort, ToolChatRequest, ToolChatResponse } from '../llm/index.js';
import { DemoAgentModel } from './demoAgentModel.js';

interface Intent {
  readonly pattern: RegExp;
  readonly command: string;
}

/** Words that start a flow of the example assistant, checked in order. */
const INTENTS: readonly Intent[] = [
  { pattern: /\b(cancel|stop|never ?mind|forget it)\b/i, command: 'cancel flow' },
  {
    pattern: /\bcall(ed)?\s*(me\s*)?back\b|\bcallback\b|\bcall me\b/i,
    command: 'start flow request_callback',
  },
  {
    pattern: /\b(financ\w*|loan|monthly|instal?ments?)\b/i,
    command: 'start flow estimate_financing',
  },
  { pattern: /\btest ?drive\b|\bbook\b/i, command: 'start flow book_test_drive' },
  { pattern: /\b(research|compare|recommend|which car)\b/i, command: 'start flow research_cars' },
  { pattern: /\b(buy|order|purchase)\b/i, command: 'start flow buy_car' },
  { pattern: /\b(human|person|someone real)\b/i, command: 'hand over' },
  { pattern: /\b(again|repeat)\b/i, command: 'repeat message' },
  {
    pattern: /\b(warranty|guarantee|opening hours|open on|part-exchange|trade in)\b/i,
    command: 'provide info',
  },
  { pattern: /^\s*(hi|hello|hey|thanks|thank you)\b/i, command: 'offtopic reply' },
];

/**
 * A scripted stand-in for a language model, used when no model is configured: for the command
 * generator it reads the user's message and the slot being asked for from the command prompt and
 * answers with commands by simple rules; for agents it plays the example's agents
 * (`DemoAgentModel`). It plays the README's demo conversation; it understands little else.
 */
export class DemoModel implements LlmPort, ToolChatPort {
  /** Its answers come from rules, so responses are never rephrased with it. */
  readonly scripted = true;
  private readonly agents = new DemoAgentModel();

  chat(request: ToolChatRequest): Promise<ToolChatResponse> {
    return this.agents.chat(request);
  }

  async complete(request: {
    readonly messages: readonly ChatMessage[];
  }): Promise<{ content: string }> {
    const prompt = request.messages.map((m) => m.content).join('\n');
    const message = lastMatch(prompt, /user message:\s*"""([\s\S]*?)"""/gi)?.trim() ?? '';
    const asking = lastMatch(prompt, /asking for (?:slot )?([A-Za-z_][\w]*)/g);
    const intent = INTENTS.find((i) => i.pattern.test(message));
    // While an agent talks with the user, its messages go to it unless they start something else.
    if (/is working with the user\./.test(prompt)) {
      const leaves = intent && /^(start flow|cancel flow|hand over)/.test(intent.command);
      return { content: leaves ? intent.command : '' };
    }
    // While a question is open, the answer fills it, unless it starts something else.
    if (asking && !intent?.command.startsWith('start flow')) {
      if (intent?.command === 'cancel flow') return { content: 'cancel flow' };
      return { content: `set slot ${asking} ${message.replace(/\s+/g, ' ')}` };
    }
    return { content: intent?.command ?? '' };
  }
}

function lastMatch(text: string, pattern: RegExp): string | undefined {
  let last: string | undefined;
  for (const match of text.matchAll(pattern)) last = match[1];
  return last;
}
