import type { AgentOutput, Assistant } from '../../src/assistant/index.js';
import { loadAssistant, projectEnvironment } from '../../src/config/index.js';
import {
  type ActionPort,
  type AgentInvocation,
  type AgentPort,
  type ConversationState,
  DialogueEngine,
  type DialoguePorts,
  type LlmPort,
  type McpToolCall,
  type McpToolPort,
  type McpToolResult,
  NO_ACTIONS,
  type TurnResult,
} from '../../src/dialogue/index.js';
import { type ProjectFilesSpec, writeProject } from './project.js';

/** A language model that answers from a script and fails on any call it was not scripted for. */
export class ScriptedLlm implements LlmPort {
  readonly prompts: string[] = [];
  private readonly replies: (string | Error)[];

  constructor(replies: readonly (string | Error)[] = []) {
    this.replies = [...replies];
  }

  reply(...replies: (string | Error)[]): void {
    this.replies.push(...replies);
  }

  async complete(request: { messages: readonly { content: string }[] }) {
    this.prompts.push(request.messages.map((m) => m.content).join('\n'));
    const next = this.replies.shift();
    if (next === undefined) throw new Error(`unexpected LLM call #${this.prompts.length}`);
    if (next instanceof Error) throw next;
    return { content: next };
  }

  get remaining(): number {
    return this.replies.length;
  }
}

type AgentReply = Partial<AgentOutput> & Pick<AgentOutput, 'status'>;

/** Sub agents that answer from a script and record every invocation. */
export class ScriptedAgents implements AgentPort {
  readonly invocations: AgentInvocation[] = [];
  private readonly replies: (AgentReply | ((i: AgentInvocation) => AgentReply) | Error)[] = [];

  reply(...replies: (AgentReply | ((i: AgentInvocation) => AgentReply) | Error)[]): void {
    this.replies.push(...replies);
  }

  async invoke(invocation: AgentInvocation): Promise<AgentOutput> {
    this.invocations.push(invocation);
    const next = this.replies.shift();
    if (next === undefined)
      throw new Error(`unexpected agent invocation of ${invocation.agent.name}`);
    if (next instanceof Error) throw next;
    const reply = typeof next === 'function' ? next(invocation) : next;
    return { id: invocation.input.id, ...reply };
  }
}

/** MCP tools that answer from a script and record every call. */
export class ScriptedTools implements McpToolPort {
  readonly calls: McpToolCall[] = [];
  private readonly results: (McpToolResult | Error)[] = [];

  reply(...results: (McpToolResult | Error)[]): void {
    this.results.push(...results);
  }

  async callTool(call: McpToolCall): Promise<McpToolResult> {
    this.calls.push(call);
    const next = this.results.shift();
    if (next === undefined) throw new Error(`unexpected tool call ${call.toolName}`);
    if (next instanceof Error) throw next;
    return next;
  }
}

export interface TestPorts extends DialoguePorts {
  readonly llm: ScriptedLlm;
  readonly agents: ScriptedAgents;
  readonly mcp: ScriptedTools;
}

/** Ports with scripted peers, a clock that ticks a second per reading and no randomness. */
export function testPorts(actions: ActionPort = NO_ACTIONS): TestPorts {
  let clock = Date.UTC(2026, 0, 1);
  return {
    llm: new ScriptedLlm(),
    agents: new ScriptedAgents(),
    mcp: new ScriptedTools(),
    actions,
    now: () => (clock += 1000),
    random: () => 0,
  };
}

/** Loads a project written from `files` (it must be valid). */
export async function assistantFrom(files: ProjectFilesSpec): Promise<Assistant> {
  const dir = await writeProject(files);
  // The project's .env only: the tests must not depend on the machine's environment.
  const result = await loadAssistant({ projectDir: dir, env: await projectEnvironment(dir, {}) });
  if (!result.ok)
    throw new Error(result.errors.map((e) => `${e.file}:${e.line}: ${e.message}`).join('\n'));
  return result.assistant;
}

/** A conversation driven message by message, keeping its state and every event. */
export class Conversation {
  state: ConversationState;
  readonly events: TurnResult['events'][number][] = [];
  last: TurnResult | undefined;

  constructor(
    readonly engine: DialogueEngine,
    readonly ports: TestPorts,
    senderId = 'tester',
  ) {
    this.state = engine.start(senderId);
  }

  /** Sends a message; returns the texts the assistant answered with. */
  async say(text: string): Promise<string[]> {
    this.last = await this.engine.handleMessage(this.state, { text }, this.ports);
    this.state = this.last.state;
    this.events.push(...this.last.events);
    return this.last.messages.map((m) => m.text ?? '');
  }

  /** The names of this conversation's events of the given kinds, e.g. `flow_started:greet`. */
  trace(...kinds: string[]): string[] {
    return this.events
      .filter((e) => kinds.includes(e.event))
      .map((e) => {
        const subject =
          'agent_id' in e ? e.agent_id : 'flow_id' in e ? e.flow_id : 'name' in e ? e.name : '';
        return `${e.event}:${subject}`;
      });
  }
}

export async function newConversation(files: ProjectFilesSpec): Promise<Conversation> {
  return new Conversation(new DialogueEngine(await assistantFrom(files)), testPorts());
}
