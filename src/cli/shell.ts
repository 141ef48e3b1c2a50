import { randomBytes, randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { summarize } from '../assistant/index.js';
import { projectEnvironment } from '../config/index.js';
import { type LocalStack, shown, startLocalStack } from '../local/index.js';
import type { OutboundMessage, ReplyBatch } from '../runtime/index.js';
import { type CliIo, EXIT, UsageError } from './io.js';
import { type StartedPeers, startPeersFor } from './peers.js';
import { loadProjectFromArgs, PROJECT_OPTIONS } from './projectArgs.js';
import { projectStandIn } from './standIn.js';

/** A bot message as the REST channel and the local stack's deliveries give it. */
interface ShownMessage {
  readonly text?: string;
  readonly buttons?: readonly { readonly title: string; readonly payload: string }[];
  readonly image?: string;
}

/** Where the shell's user reads: lines in, and a way to show the prompt. */
export interface ShellInput {
  readonly lines: AsyncIterable<string>;
  prompt(): void;
  close(): void;
}

function terminalInput(): ShellInput {
  const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: 'you> ' });
  return { lines: rl, prompt: () => rl.prompt(), close: () => rl.close() };
}

/**
 * `switchboard shell`: a conversation with the assistant on the terminal. It starts a local
 * stack of its own (as `run` does, with `--demo-peers` or `--peers`) or talks to a running one
 * (`--url`). Bot messages show as they are delivered (filler messages first, on its own stack),
 * buttons as numbered choices that a number picks, and `/inspect` shows the dialogue stack and
 * the slots. `/exit` or end of input ends it.
 */
export async function shellCommand(
  args: readonly string[],
  io: CliIo,
  input: () => ShellInput = terminalInput,
): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      ...PROJECT_OPTIONS,
      url: { type: 'string' },
      sender: { type: 'string' },
      'demo-peers': { type: 'boolean', default: false },
      peers: { type: 'string', multiple: true },
    },
    strict: true,
  });
  const sender = values.sender ?? `shell-${randomUUID().slice(0, 8)}`;
  let target: Target;
  if (values.url !== undefined) {
    const url = URL.parse(values.url);
    if (!url || !/^https?:$/.test(url.protocol)) {
      throw new UsageError(`--url ${values.url}: not an http(s) URL`);
    }
    target = {
      url: url.href.replace(/\/$/, ''),
      token: io.env.SWITCHBOARD_REST_TOKEN,
      live: false,
      close: async () => {},
    };
  } else {
    const started = await ownStack(io, values, sender);
    if (!started) return EXIT.invalid;
    target = started;
  }
  io.out(
    `talking to the assistant as "${sender}"; type a message, a number to pick a button, /inspect for the stack and slots, /exit to leave`,
  );
  const terminal = input();
  let buttons: readonly { title: string; payload: string }[] = [];
  try {
    terminal.prompt();
    for await (const raw of terminal.lines) {
      const line = raw.trim();
      if (line === '/exit' || line === '/quit') break;
      if (line === '') {
        terminal.prompt();
        continue;
      }
      if (line === '/inspect') {
        for (const text of await inspect(target, sender)) io.out(text);
        terminal.prompt();
        continue;
      }
      const picked = /^\d+$/.test(line) ? buttons[Number(line) - 1] : undefined;
      if (picked) io.out(`(${picked.title}: ${picked.payload})`);
      const replies = await say(target, sender, picked ? picked.payload : line);
      const messages = target.live ? (target.takeShown?.() ?? []) : replies;
      if (!target.live) for (const m of messages) showMessage(io, m);
      buttons = messages.findLast((m) => (m.buttons ?? []).length > 0)?.buttons ?? [];
      terminal.prompt();
    }
  } catch (error) {
    io.err(`switchboard shell: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.invalid;
  } finally {
    terminal.close();
    await target.close();
  }
  return EXIT.ok;
}

/** The stack the shell talks to. */
interface Target {
  readonly url: string;
  readonly token: string | undefined;
  /** Whether bot messages are shown as they are delivered (the shell's own stack). */
  readonly live: boolean;
  /** The messages shown since the last call (the shell's own stack). */
  readonly takeShown?: () => ShownMessage[];
  close(): Promise<void>;
}

async function ownStack(
  io: CliIo,
  values: Parameters<typeof loadProjectFromArgs>[1] & {
    readonly 'demo-peers'?: boolean;
    readonly peers?: string[];
  },
  sender: string,
): Promise<Target | undefined> {
  const assistant = await loadProjectFromArgs(io, values);
  if (!assistant) return undefined;
  io.err(`loaded assistant: ${summarize(assistant)}`);
  const env = await projectEnvironment(assistant.projectDir, io.env);
  const standIn = await projectStandIn(io, 'shell', assistant, env);
  if (!standIn) return undefined;
  const peers: StartedPeers | undefined = await startPeersFor(io, 'shell', {
    assistant,
    env,
    demo: values['demo-peers'] === true && env.SWITCHBOARD_DEMO_PEERS?.toLowerCase() !== 'off',
    modules: values.peers ?? [],
  });
  if (!peers) return undefined;
  let shownSince: ShownMessage[] = [];
  // The shell's own stack answers it alone: a token of its own.
  const token = randomBytes(24).toString('hex');
  let stack: LocalStack;
  try {
    stack = await startLocalStack({
      assistant,
      port: 0,
      env: { ...env, SWITCHBOARD_REST_TOKEN: token },
      announce: (line) => io.err(line),
      ...standIn,
      watchReplies: (batch: ReplyBatch) => {
        if (batch.conversationId !== sender) return;
        for (const { message } of batch.messages as readonly OutboundMessage[]) {
          showMessage(io, message);
          shownSince.push(message);
        }
      },
    });
  } catch (error) {
    await peers.close();
    throw error;
  }
  return {
    url: stack.url,
    token,
    live: true,
    takeShown: () => {
      const taken = shownSince;
      shownSince = [];
      return taken;
    },
    close: async () => {
      await stack.stop();
      await peers.close();
    },
  };
}

function showMessage(io: CliIo, message: ShownMessage): void {
  if (message.text !== undefined) io.out(`bot> ${shown(message.text)}`);
  if (message.image !== undefined) io.out(`bot> (image) ${shown(message.image)}`);
  (message.buttons ?? []).forEach((button, i) => {
    io.out(`     ${i + 1}) ${shown(button.title)}`);
  });
}

async function say(target: Target, sender: string, message: string): Promise<ShownMessage[]> {
  const response = await fetch(`${target.url}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
    },
    body: JSON.stringify({ sender, message }),
  });
  if (!response.ok) {
    throw new Error(`the assistant answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as ShownMessage[];
}

/** The dialogue stack, top last, and the slots that have a value, from the tracker. */
async function inspect(target: Target, sender: string): Promise<string[]> {
  const response = await fetch(
    `${target.url}/conversations/${encodeURIComponent(sender)}/tracker`,
    { headers: target.token ? { authorization: `Bearer ${target.token}` } : {} },
  );
  if (response.status === 404) return ['(no conversation yet)'];
  if (!response.ok) {
    throw new Error(`the tracker answered ${response.status}: ${await response.text()}`);
  }
  const tracker = (await response.json()) as {
    stack?: readonly Record<string, unknown>[];
    slots?: Readonly<Record<string, unknown>>;
  };
  const frames = (tracker.stack ?? []).map((frame) => {
    const name = String(frame.flow_id ?? frame.type ?? 'frame');
    return frame.step_id !== undefined ? `${name} (at ${String(frame.step_id)})` : name;
  });
  const slots = Object.entries(tracker.slots ?? {})
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  return [
    `stack: ${frames.length > 0 ? frames.map(shown).join(' > ') : '(empty)'}`,
    `slots: ${slots.length > 0 ? shown(slots.join(', ')) : '(none set)'}`,
  ];
}
