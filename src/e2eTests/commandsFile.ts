import { readFile } from 'node:fs/promises';
import * as z from 'zod';
import { strictObject } from '../assistant/index.js';
import { type Diagnostic, didYouMean, YamlSource, zodDiagnostics } from '../config/index.js';
import type { LlmPort } from '../dialogue/index.js';
import { SwitchboardError } from '../resilience/index.js';
import { type RunningCase, scopedKeys } from './runningCase.js';

/** The commands file's name: it is looked for in the folder of the tests. */
export const COMMANDS_FILE_NAME = 'e2e_commands.yml';

/** `e2e_commands.yml`: user message → the commands the command generator answers with. */
const CommandsFileShape = strictObject({
  commands: z.record(z.string(), z.union([z.string(), z.array(z.string())]).nullable()),
});

/** The scripted commands, by message (or `<test case>::<message>`), one command per line. */
export class ScriptedCommands {
  constructor(
    readonly file: string,
    private readonly byMessage: ReadonlyMap<string, string>,
  ) {}

  /** The commands for a message of the running test case, or undefined if the file has none. */
  lookup(running: RunningCase, message: string): string | undefined {
    for (const key of scopedKeys(running, normalize(message))) {
      const commands = this.byMessage.get(key);
      if (commands !== undefined) return commands;
    }
    return undefined;
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
  return { commands: new ScriptedCommands(file, byMessage), errors: [] };
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

  constructor(
    private readonly commands: ScriptedCommands,
    private readonly running: RunningCase,
  ) {}

  async complete(): Promise<{ content: string }> {
    const message = this.running.message ?? '';
    const content = this.commands.lookup(this.running, message);
    if (content === undefined) {
      throw new UnscriptedMessageError(
        `${this.commands.file} has no commands for ${JSON.stringify(message)}${this.commands.suggestion(message)}`,
      );
    }
    return { content };
  }
}
