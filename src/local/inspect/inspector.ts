/**
 * The inspector of the local stack: a page at `/inspect` and the read-only API it reads. The
 * page chats through the browser channel and shows, live, a conversation's dialogue stack, slots
 * and events (stack snapshots folded away) and each agent run as a timeline of its iterations.
 * A run's system prompt is not stored: the inspector renders it again from the run's record and
 * the project's template when asked. Values of the project's secrets, and the values of keys
 * named like credentials, are masked in everything it answers.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ReactRunData, systemPrompt } from '../../agents/index.js';
import type { Assistant } from '../../assistant/index.js';
import { a2aServerSecretNames, deployedSecretNames } from '../../build/index.js';
import { type Channel, HttpError, type HttpResponse } from '../../runtime/index.js';
import type { ConversationQueries } from './queries.js';

export const INSPECT_PATH = '/inspect';

/** Keys whose values are credentials wherever they appear. */
const SECRET_KEY = /(api[_-]?key|token|secret|password|passwd|authorization|credential)/i;
const MASK = '••••••';
/** Secret values shorter than this are not looked for in text (they would mask too much). */
const SHORTEST_MASKED = 6;

export interface InspectorOptions {
  readonly assistant: Assistant;
  readonly queries: ConversationQueries;
  /** The environment the stack resolves the project's secrets from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Other values to mask (the REST token). */
  readonly secrets?: readonly (string | undefined)[];
  readonly now: () => number;
  readonly stopping?: AbortSignal;
}

/**
 * Replaces secret values, wherever they appear in text, with a mask; so too the values of keys
 * named like credentials, of `{name, value}` pairs so named (slots and their events), and of
 * both inside JSON held in a string (a tool call's arguments).
 */
export function masker(values: readonly string[]): (value: unknown) => unknown {
  const secrets = [...new Set(values.filter((v) => v.length >= SHORTEST_MASKED))].sort(
    (a, b) => b.length - a.length,
  );
  const text = (s: string) => secrets.reduce((out, secret) => out.replaceAll(secret, MASK), s);
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number';
  const mask = (value: unknown): unknown => {
    if (typeof value === 'string') return maskJson(value) ?? text(value);
    if (Array.isArray(value)) return value.map(mask);
    if (value !== null && typeof value === 'object') {
      const named = (value as { name?: unknown }).name;
      const secretPair = typeof named === 'string' && SECRET_KEY.test(named);
      return Object.fromEntries(
        Object.entries(value).map(([key, v]) => [
          key,
          scalar(v) && (SECRET_KEY.test(key) || (secretPair && key === 'value')) ? MASK : mask(v),
        ]),
      );
    }
    return value;
  };
  // JSON in a string is masked as what it holds, and written back as JSON.
  const maskJson = (s: string): string | undefined => {
    const start = s.trimStart()[0];
    if (start !== '{' && start !== '[') return undefined;
    try {
      return JSON.stringify(mask(JSON.parse(s)));
    } catch {
      return undefined;
    }
  };
  return mask;
}

/** The values in the local stack's `.secrets.json`, which it reads before the environment. */
function fileSecrets(projectDir: string): string[] {
  try {
    const file = JSON.parse(readFileSync(path.join(projectDir, '.secrets.json'), 'utf8'));
    return Object.values(file ?? {}).filter((v): v is string => typeof v === 'string');
  } catch {
    return [];
  }
}

/** The inspector's routes, as a channel of the local stack (it carries no conversations). */
export function inspectorChannel(options: InspectorOptions): Channel {
  const names = [
    ...deployedSecretNames(options.assistant),
    ...a2aServerSecretNames(options.assistant),
  ];
  const secretValues = [
    ...names.map((name) => options.env[name]),
    ...fileSecrets(options.assistant.projectDir),
    ...(options.secrets ?? []),
  ].filter((v): v is string => typeof v === 'string');
  const mask = masker(secretValues);
  const json = (body: unknown): HttpResponse => ({ status: 200, body: mask(body) });
  const { queries } = options;
  return {
    name: 'inspector',
    streams: false,
    routes: [
      {
        method: 'GET',
        path: INSPECT_PATH,
        authenticated: true,
        handle: async () => ({
          status: 200,
          body: undefined,
          headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
          stream: once(await page()),
        }),
      },
      {
        method: 'GET',
        path: `${INSPECT_PATH}/api/conversations`,
        authenticated: true,
        handle: async () => json(await queries.list()),
      },
      {
        method: 'GET',
        path: `${INSPECT_PATH}/api/conversations/{sender}`,
        authenticated: true,
        handle: async (request) => {
          return json(await queries.read(request.params.sender ?? ''));
        },
      },
      {
        method: 'GET',
        path: `${INSPECT_PATH}/api/conversations/{sender}/follow`,
        authenticated: true,
        handle: async (request) => ({
          status: 200,
          body: undefined,
          headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
          stream: versions(queries, request.params.sender ?? '', options.stopping),
        }),
      },
      {
        method: 'GET',
        path: `${INSPECT_PATH}/api/conversations/{sender}/runs/{run}/prompt`,
        authenticated: true,
        handle: async (request) => {
          const run = await queries.run(request.params.sender ?? '', request.params.run ?? '');
          if (!run) throw new HttpError(404, 'no such agent run');
          return json({ prompt: renderedPrompt(options, run.agentId, run.data) });
        },
      },
    ],
  };
}

/**
 * A ReAct run's system prompt rendered again from its record (the date and time, when the
 * template shows them, are now's).
 */
function renderedPrompt(options: InspectorOptions, agentId: string, data: unknown): string {
  const agent = options.assistant.agents[agentId];
  if (agent?.protocol !== 'RASA') {
    throw new HttpError(400, `${agentId} is not a ReAct agent: it has no system prompt here`);
  }
  const parsed = ReactRunData.safeParse((data as { runner?: unknown } | null)?.runner);
  if (!parsed.success) throw new HttpError(400, 'the run record is not a ReAct run');
  const kind = parsed.data.exitIf !== undefined ? 'task' : 'open';
  return systemPrompt(agent, kind, parsed.data, options.now());
}

let cachedPage: Promise<string> | undefined;

/** The page, read once from beside this module. */
function page(): Promise<string> {
  cachedPage ??= readFile(new URL('./page.html', import.meta.url), 'utf8');
  return cachedPage;
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** A conversation's versions as server-sent events, until the client leaves. */
async function* versions(
  queries: ConversationQueries,
  sender: string,
  stopping?: AbortSignal,
): AsyncGenerator<string> {
  const stop = new AbortController();
  const stopped = () => stop.abort();
  stopping?.addEventListener('abort', stopped);
  try {
    for await (const version of queries.follow(sender, stop.signal)) {
      yield `event: version\ndata: ${version}\n\n`;
    }
  } finally {
    stopping?.removeEventListener('abort', stopped);
    stop.abort();
  }
}
