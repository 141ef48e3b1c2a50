import { createHash } from 'node:crypto';
import path from 'node:path';
import type {
  ChatModel,
  ToolCall,
  ToolChatMessage,
  ToolChatPort,
  ToolChatRequest,
  ToolChatResponse,
} from '../llm/index.js';
import { ScriptedCommandModel, type ScriptedCommands, type ScriptedMove } from './commandsFile.js';
import type { RunningCase } from './runningCase.js';

/**
 * The sub agents' model in scripted runs: it plays the replies the commands file's `agents:`
 * section gives an agent for the user's message it answers, one reply per call, in order. It
 * keeps no state of its own: the calls it already answered are counted from the request (the
 * ids of its tool calls carry the key of the script), so a run may go on in another process.
 */
export class ScriptedAgentModel implements ToolChatPort {
  constructor(
    private readonly commands: ScriptedCommands,
    private readonly running: RunningCase,
  ) {}

  async chat(request: ToolChatRequest): Promise<ToolChatResponse> {
    const agent = request.agent ?? '';
    const message = this.running.message ?? lastUserMessage(request.messages);
    const script = this.commands.movesOf(agent, this.running, message);
    if (!script) return text(this.unscripted(agent, message));
    const prefix = `scripted_${createHash('sha256').update(`${agent}\n${script.key}`).digest('hex').slice(0, 12)}_`;
    const given = request.messages.filter(
      (m) => m.role === 'assistant' && m.toolCalls?.some((call) => call.id.startsWith(prefix)),
    );
    const played = given.length;
    const move = script.moves[played];
    // Asked for a closing line without tools: the text of the reply that completed the task.
    if (request.toolChoice === 'none') return text(given.at(-1)?.content ?? '');
    if (!move) {
      return text(
        `(scripted model: the ${script.moves.length === 1 ? 'one reply' : `${script.moves.length} replies`} of ${agent} for ${JSON.stringify(message)} in ${this.shownFile()} were all given)`,
      );
    }
    return reply(move, `${prefix}${played}`, request.messages);
  }

  private unscripted(agent: string, message: string): string {
    const scripted = this.commands.agents.includes(agent)
      ? `has no reply of ${agent} for ${JSON.stringify(message)}`
      : `scripts no replies of ${agent}`;
    return `(scripted model: ${this.shownFile()} ${scripted}; add one under "agents:" there, or use a real model: OPENAI_API_KEY, and switchboard test --no-commands)`;
  }

  private shownFile(): string {
    return path.relative(process.cwd(), this.commands.file) || this.commands.file;
  }
}

/**
 * The whole model of a project played from its commands file, outside tests (`switchboard run`
 * without a key): commands for the command generator, scripted replies for the agents. A message
 * the file does not script gets no commands, and `unscripted` hears of it.
 */
export function scriptedModel(
  commands: ScriptedCommands,
  unscripted: (message: string, suggestion: string) => void,
): ChatModel {
  const running: RunningCase = { name: undefined, message: undefined };
  const generator = new ScriptedCommandModel(commands, running, unscripted);
  const agents = new ScriptedAgentModel(commands, running);
  return {
    scripted: true,
    complete: (request) => generator.complete(request),
    chat: (request) => agents.chat(request),
  };
}

function reply(
  move: ScriptedMove,
  id: string,
  messages: readonly ToolChatMessage[],
): ToolChatResponse {
  const toolCalls: ToolCall[] = move.tool
    ? [{ id, name: move.tool, arguments: JSON.stringify(move.arguments ?? {}) }]
    : [];
  return { content: textOf(move, messages), toolCalls };
}

/** A reply's text, rendered when it is a template; a template that fails says why instead. */
function textOf(move: ScriptedMove, messages: readonly ToolChatMessage[]): string {
  if (!move.render) return move.text ?? '';
  try {
    return move.render({ result: lastToolResult(messages) });
  } catch (error) {
    // nunjucks puts the template's name and a line break before its own message.
    const reason = (error instanceof Error ? error.message : String(error))
      .split('\n')
      .at(-1)
      ?.trim()
      .replace(/^Error: /, '');
    return `(scripted model: the reply ${JSON.stringify(move.text)} failed to render: ${reason})`;
  }
}

/** The content of the last tool result, parsed when it is JSON. */
function lastToolResult(messages: readonly ToolChatMessage[]): unknown {
  const last = messages.findLast((m) => m.role === 'tool');
  if (!last) return undefined;
  try {
    return JSON.parse(last.content) as unknown;
  } catch {
    return last.content;
  }
}

function text(content: string): ToolChatResponse {
  return { content, toolCalls: [] };
}

function lastUserMessage(messages: readonly ToolChatMessage[]): string {
  return messages.findLast((m) => m.role === 'user')?.content ?? '';
}
