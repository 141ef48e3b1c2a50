import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { summarize } from '../assistant/index.js';
import { projectEnvironment } from '../config/index.js';
import { terminalText } from '../local/index.js';
import type { OutboundMessage, ReplyBatch } from '../runtime/index.js';
import { type CliIo, EXIT, UsageError } from './io.js';
import { type StartedPeers, startPeersFor } from './peers.js';
import { startPrivateStack, TURN_WAIT_MS } from './privateStack.js';
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
  /** Whether input ended (Ctrl-D, Ctrl-C, end of a pipe): the shell leaves after the turn. */
  readonly closed: () => boolean;
  prompt(): void;
  close(): void;
}

function terminalInput(): ShellInput {
  const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: 'you> ' });
  let closed = false;
  rl.once('close', () => {
    closed = true;
  });
  return {
    lines: rl,
    closed: () => closed,
    prompt: () => {
      if (!closed) rl.prompt();
    },
    close: () => rl.close(),
  };
}

const HELP = [
  'type a message, or:',
  '  a number    pick that button of the last message that had buttons',
  '  /inspect    the dialogue stack and the slots that have a value',
  '  /help       this help',
  '  /exit       leave (also /quit, Ctrl-D, Ctrl-C)',
  'any other /… goes to the assistant (such as /restart, or /SetSlots(name=value))',
];

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
    if (!url || !/^https?:$/.test(url.protocol) || url.search !== '' || url.hash !== '') {
      throw new UsageError(`--url ${values.url}: not an http(s) URL without a query`);
    }
    target = {
      url: url.href.replace(/\/$/, ''),
      // The token as `run` reads it: the environment, else the project's .env.
      token: (await projectEnvironment(path.resolve(io.cwd, values.project ?? '.'), io.env))
        .SWITCHBOARD_REST_TOKEN,
      close: async () => {},
    };
    try {
      await reachable(target);
    } catch (error) {
      io.err(`switchboard shell: ${problem(error)}`);
      return EXIT.invalid;
    }
  } else {
    const started = await ownStack(io, values, sender);
    if (!started) return EXIT.invalid;
    target = started;
  }
  io.out(`talking to the assistant as "${sender}"; /help for what you can type`);
  let terminal: ShellInput | undefined;
  // Ctrl-C or SIGTERM ends input: the turn in progress finishes, then the stack stops.
  const stop = () => terminal?.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let buttons: readonly { title: string; payload: string }[] = [];
  try {
    terminal = input();
    terminal.prompt();
    for await (const raw of terminal.lines) {
      const line = raw.trim();
      if (line === '/exit' || line === '/quit') break;
      if (line === '/help') {
        for (const text of HELP) io.out(text);
      } else if (line === '/inspect') {
        try {
          for (const text of await inspect(target, sender)) io.out(text);
        } catch (error) {
          io.err(`switchboard shell: ${problem(error)}`);
        }
      } else if (line !== '') {
        const picked = /^\d+$/.test(line) ? buttons[Number(line) - 1] : undefined;
        if (picked) io.out(`(${terminalText(picked.title)}: ${terminalText(picked.payload)})`);
        try {
          const replies = await say(target, sender, picked ? picked.payload : line);
          // Its own stack showed them as they came; a running one's show now.
          const messages = target.takeShown ? await target.takeShown(replies.length) : replies;
          if (!target.takeShown) for (const m of messages) showMessage(io, m);
          // The turn's replies decide the buttons when its deliveries have not all shown yet.
          const latest = messages.length >= replies.length ? messages : replies;
          const withButtons = latest.findLast((m) => (m.buttons ?? []).length > 0);
          if (latest.length > 0) buttons = withButtons?.buttons ?? [];
        } catch (error) {
          io.err(`switchboard shell: ${problem(error)}`);
        }
      }
      if (terminal.closed()) break;
      terminal.prompt();
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    terminal?.close();
    await target.close();
  }
  return EXIT.ok;
}

/** How long the shell waits for a turn's delivered messages to show once the webhook answered. */
const SHOW_WAIT_MS = 2_000;

/** The stack the shell talks to. */
interface Target {
  readonly url: string;
  readonly token: string | undefined;
  /**
   * The messages shown since the last call, on the shell's own stack, which shows them as they
   * are delivered; absent for a running stack, whose messages show when the turn ends. It waits
   * a moment for `atLeast` of them: the webhook may read a delivered batch from the store before
   * the delivery has told the shell of it.
   */
  readonly takeShown?: (atLeast: number) => Promise<ShownMessage[]>;
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
    demo: values['demo-peers'] === true,
    modules: values.peers ?? [],
  });
  if (!peers) return undefined;
  let shownSince: ShownMessage[] = [];
  // A batch may be delivered twice (delivery is idempotent, not once): each message shows once.
  const seen = new Set<string>();
  const { stack, token } = await startPrivateStack(
    {
      assistant,
      env,
      announce: (line) => io.err(line),
      ...standIn,
      watchReplies: (batch: ReplyBatch) => {
        if (batch.conversationId !== sender) return;
        for (const { id, message } of batch.messages as readonly OutboundMessage[]) {
          if (seen.has(id)) continue;
          seen.add(id);
          showMessage(io, message);
          shownSince.push(message);
        }
      },
    },
    peers,
  );
  return {
    url: stack.url,
    token,
    takeShown: async (atLeast) => {
      const deadline = Date.now() + SHOW_WAIT_MS;
      while (shownSince.length < atLeast && Date.now() < deadline) await sleep(10);
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
  if (message.text !== undefined) {
    io.out(`bot> ${terminalText(message.text).replaceAll('\n', '\n     ')}`);
  }
  if (message.image !== undefined) io.out(`bot> (image) ${terminalText(message.image)}`);
  (message.buttons ?? []).forEach((button, i) => {
    io.out(`     ${i + 1}) ${terminalText(button.title)}`);
  });
}

/** Why a request failed, in one line a terminal shows as it is. */
function problem(error: unknown): string {
  if (!(error instanceof Error)) return terminalText(String(error));
  const cause = (error.cause as { code?: unknown; message?: unknown } | undefined) ?? {};
  const detail = typeof cause.code === 'string' ? ` (${cause.code})` : '';
  const text = terminalText(`${error.message}${detail}`).replaceAll('\n', ' ');
  return text.length <= 300 ? text : `${text.slice(0, 300)}…`;
}

/** A refused request, with what to do about a token. */
async function refused(response: Response, what: string): Promise<Error> {
  const body = (await response.text()).slice(0, 300);
  const hint =
    response.status === 401
      ? '; set SWITCHBOARD_REST_TOKEN to the token the assistant was started with'
      : '';
  return new Error(`${what} answered ${response.status}: ${body}${hint}`);
}

/** Checks that a running assistant answers, before the conversation starts. */
async function reachable(target: Target): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${target.url}/health`, { signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new Error(`no assistant answers at ${target.url}: ${problem(error)}`);
  }
  if (!response.ok) throw await refused(response, `${target.url}/health`);
}

async function say(target: Target, sender: string, message: string): Promise<ShownMessage[]> {
  const response = await fetch(`${target.url}/webhooks/rest/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
    },
    body: JSON.stringify({ sender, message }),
    signal: AbortSignal.timeout(TURN_WAIT_MS + 10_000),
  });
  if (!response.ok) throw await refused(response, 'the assistant');
  return (await response.json()) as ShownMessage[];
}

/** The dialogue stack, top last, and the slots that have a value, from the tracker. */
async function inspect(target: Target, sender: string): Promise<string[]> {
  const response = await fetch(
    `${target.url}/conversations/${encodeURIComponent(sender)}/tracker`,
    {
      headers: target.token ? { authorization: `Bearer ${target.token}` } : {},
      signal: AbortSignal.timeout(10_000),
    },
  );
  if (!response.ok) throw await refused(response, 'the tracker');
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
    `stack: ${frames.length > 0 ? frames.map((f) => terminalText(f)).join(' > ') : '(empty)'}`,
    `slots: ${slots.length > 0 ? terminalText(slots.join(', ')).replaceAll('\n', ' ') : '(none set)'}`,
  ];
}
