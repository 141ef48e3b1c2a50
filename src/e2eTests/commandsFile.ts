import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { strictObject } from '../assistant/index.js';
import { type Diagnostic, didYouMean, YamlSource, zodDiagnostics } from '../config/index.js';
import type { LlmPort } from '../dialogue/index.js';
import { compileTemplate, renderTemplate } from '../prompts/environment.js';
import { SwitchboardError } from '../resilience/index.js';
import { type RunningCase, scopedKeys } from './runningCase.js';

/** The commands file's name: it is looked for in the folder of the tests. */
export const COMMANDS_FILE_NAME = 'e2e_commands.yml';

/** One reply of a scripted agent's model: text, a tool call, or both. */
const ScriptedMoveShape = strictObject({
  text: z.string().optional(),
  tool: z.string().min(1).optional(),
  arguments: z.record(z.string(), z.unknown()).optional(),
})
  .refine((move) => move.text !== undefined || move.tool !== undefined, {
    message: 'a scripted reply needs "text", "tool" or both',
  })
  .refine(
    (move) => move.arguments === undefined || move.tool !== undefined || move.text === undefined,
    {
      message: 'a scripted reply has "arguments" but no "tool" to call with them',
    },
  );
export type ScriptedMove = z.infer<typeof ScriptedMoveShape> & {
  /** Renders a text that is a template. */
  readonly render?: (variables: Readonly<Record<string, unknown>>) => string;
};

/**
 * `e2e_commands.yml`: user message → the commands the command generator answers with; and, for
 * each sub agent, user message → the replies its model gives in order while it answers that
 * message.
 */
const CommandsFileShape = strictObject({
  commands: z.record(z.string(), z.union([z.string(), z.array(z.string())]).nullable()),
  agents: z.record(z.string(), z.record(z.string(), z.array(ScriptedMoveShape).min(1))).optional(),
});

/**
 * The scripted commands, by message (or `<test case>::<message>`), one command per line; and the
 * scripted replies of agents' models, by agent and message.
 */
export class ScriptedCommands {
  constructor(
    readonly file: string,
    private readonly byMessage: ReadonlyMap<string, string>,
    private readonly agentMoves: ReadonlyMap<
      string,
      ReadonlyMap<string, readonly ScriptedMove[]>
    > = new Map(),
    private readonly source?: YamlSource,
  ) {}

  /** A located error for each agent the file scripts that the project does not have. */
  unknownAgents(known: readonly string[]): Diagnostic[] {
    return this.agents
      .filter((agent) => !known.includes(agent))
      .map((agent) => {
        const message = `agents: the project has no sub agent "${agent}"${didYouMean(agent, known)}`;
        return this.source
          ? this.source.diagnostic(['agents', agent], message, 'key')
          : { file: this.file, line: 1, col: 1, message };
      });
  }

  /** Whether the file scripts any agent. */
  get scriptsAgents(): boolean {
    return this.agentMoves.size > 0;
  }

  /** The agents the file scripts. */
  get agents(): readonly string[] {
    return [...this.agentMoves.keys()];
  }

  /**
   * An agent's scripted replies while it answers a message of the running test case, with the
   * key they were found under; undefined if the file has none.
   */
  movesOf(
    agent: string,
    running: RunningCase,
    message: string,
  ): { readonly key: string; readonly moves: readonly ScriptedMove[] } | undefined {
    const byMessage = this.agentMoves.get(agent);
    for (const key of scopedKeys(running, normalize(message))) {
      const moves = byMessage?.get(key);
      if (moves !== undefined) return { key, moves };
    }
    return undefined;
  }

  /** The commands for a message of the running test case, or undefined if the file has none. */
  lookup(running: RunningCase, message: string): string | undefined {
    for (const key of scopedKeys(running, normalize(message))) {
      const commands = this.byMessage.get(key);
      if (commands !== undefined) return commands;
    }
    return undefined;
  }

  /** The messages the file scripts for every test case. */
  get messages(): readonly string[] {
    return [...this.byMessage.keys()].filter((k) => !k.includes('::'));
  }

  /** The scripted message closest to `message`, for an error that says what might be meant. */
  suggestion(message: string): string {
    const plain = [...this.byMessage.keys()].filter((k) => !k.includes('::'));
    return didYouMean(normalize(message), plain);
  }
}

/** Reads a commands file; its problems come back as located diagnostics. */
export async function loadCommandsFile(
  file: string,
): Promise<{ commands?: ScriptedCommands; errors: Diagnostic[] }> {
  const loaded = YamlSource.parse(file, await readFile(file, 'utf8'));
  if (!loaded.source) return { errors: loaded.errors };
  const parsed = CommandsFileShape.safeParse(loaded.source.data);
  if (!parsed.success) {
    return { errors: zodDiagnostics(parsed.error, loaded.source, loaded.source.data) };
  }
  const byMessage = new Map<string, string>();
  for (const [message, commands] of Object.entries(parsed.data.commands)) {
    const lines = Array.isArray(commands) ? commands.join('\n') : (commands ?? '');
    byMessage.set(normalizeKey(message), lines.trim());
  }
  const agentMoves = new Map<string, Map<string, readonly ScriptedMove[]>>();
  const errors: Diagnostic[] = [];
  for (const [agent, byAgentMessage] of Object.entries(parsed.data.agents ?? {})) {
    const moves = new Map<string, readonly ScriptedMove[]>();
    for (const [message, replies] of Object.entries(byAgentMessage)) {
      moves.set(
        normalizeKey(message),
        replies.map((reply, i) => {
          const where = ['agents', agent, message, i, 'text'];
          return compiledMove(reply, (error) =>
            errors.push(loaded.source.diagnostic(where, error)),
          );
        }),
      );
    }
    agentMoves.set(agent, moves);
  }
  if (errors.length > 0) return { errors };
  return {
    commands: new ScriptedCommands(file, byMessage, agentMoves, loaded.source),
    errors: [],
  };
}

/**
 * A scripted reply whose text is a template (`{{ result.status }}`: the last tool result, parsed
 * when it is JSON), compiled now so that a syntax error is reported where it is written.
 */
function compiledMove(move: ScriptedMove, report: (error: string) => void): ScriptedMove {
  const { text } = move;
  if (text === undefined || !/\{[{%#]/.test(text)) return move;
  try {
    const template = compileTemplate(text, 'scripted reply');
    return { ...move, render: (variables) => renderTemplate(template, variables) };
  } catch (error) {
    report(
      `the reply's text is not a valid template: ${error instanceof Error ? error.message : String(error)}`,
    );
    return move;
  }
}

/** A message matches its entry with surrounding and repeated white space ignored. */
function normalize(message: string): string {
  return message.trim().replace(/\s+/g, ' ');
}

function normalizeKey(key: string): string {
  const at = key.indexOf('::');
  return at < 0 ? normalize(key) : `${key.slice(0, at).trim()}::${normalize(key.slice(at + 2))}`;
}

/** The running message has no entry in the commands file. Code `MESSAGE_UNSCRIPTED`. */
export class UnscriptedMessageError extends SwitchboardError {
  override readonly name = 'UnscriptedMessageError';
  override readonly code = 'MESSAGE_UNSCRIPTED';
}

/**
 * The command generator's model in scripted runs: it answers the message being run with its
 * commands from the commands file, whatever the prompt. Test cases run one message at a time,
 * so the running message is the one the prompt is about.
 */
export class ScriptedCommandModel implements LlmPort {
  /** A scripted run stays deterministic: nothing is rephrased, as with the demo model. */
  readonly scripted = true;

  /**
   * `unscripted`, when given, hears of a message the file has no commands for, which then gets
   * none (the assistant's cannot-handle pattern answers it); without it, that is an error.
   */
  constructor(
    private readonly commands: ScriptedCommands,
    private readonly running: RunningCase,
    private readonly unscripted?: (message: string, suggestion: string) => void,
  ) {}

  async complete(request?: { readonly userMessage?: string }): Promise<{ content: string }> {
    const message = this.running.message ?? request?.userMessage ?? '';
    const content = this.commands.lookup(this.running, message);
    if (content !== undefined) return { content };
    const suggestion = this.commands.suggestion(message);
    if (this.unscripted) {
      this.unscripted(message, suggestion);
      return { content: '' };
    }
    throw new UnscriptedMessageError(
      `${this.commands.file} has no commands for ${JSON.stringify(message)}${suggestion}`,
    );
  }
}
