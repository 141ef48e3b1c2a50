/**
 * One MCP server as a long-lived client: connected on first use (Streamable HTTP, or the legacy
 * SSE transport when the server only speaks that) and kept for the life of the container. It
 * connects again when the server drops its session, renews an OAuth token the server refuses,
 * retries connecting with backoff within the caller's deadline, and caches the tool list until
 * it expires or the server says it changed.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker-provider.js';
import type { McpServer } from '../assistant/index.js';
import { linkedSignal, retryWait, sleep, within } from '../resilience/index.js';
import type { ServerAuth } from './auth.js';
import type {
  McpCallOptions,
  McpCallResult,
  McpClient,
  McpTool,
  McpToolRequest,
} from './client.js';
import { McpRequestError, McpUnavailableError } from './errors.js';
import { classifyFailure, describeFailure, isUnknownToolResult } from './failures.js';

/** Connection retries of a flow's calls (an agent's come from its `max_retries`). */
export const DEFAULT_CONNECT_RETRIES = 3;
/** The first connection retry waits 0.2 s, each further one twice as long, give or take a fifth. */
const CONNECT_BACKOFF = { baseMs: 200, jitter: 0.2 } as const;
/** How long one connection attempt (the initialize handshake) may take. */
const CONNECT_TIMEOUT_MS = 10_000;
/** A request's timeout when the caller names none, within its deadline. */
const DEFAULT_TIMEOUT_MS = 60_000;
/** How long a listed set of tools is trusted without a change notification. */
export const TOOLS_TTL_MS = 5 * 60_000;

const CLIENT_INFO = { name: 'switchboard', version: '0.1.0' };

/**
 * Checks a tool's structured result against the output schema it listed. The SDK's default (Ajv)
 * compiles each schema to code and weighs about 130 KB in a bundle; this one interprets the
 * schema, drafts 4 to 2020-12, and is a sixth of that. Handler bundles leave Ajv out.
 */
const OUTPUT_VALIDATOR = new CfWorkerJsonSchemaValidator({ shortcircuit: false });

export interface ServerConnectionOptions {
  readonly server: McpServer;
  readonly auth: ServerAuth;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly toolsTtlMs?: number;
  readonly fetch?: typeof fetch;
}

export type TransportKind = 'streamable-http' | 'sse';

export class ServerConnection implements McpClient {
  private connected: Promise<Client> | undefined;
  /** The client `connected` resolved to, once it has: requests then use it without waiting. */
  private ready: { readonly from: Promise<Client>; readonly client: Client } | undefined;
  private kind: TransportKind | undefined;
  private tools: { list: readonly McpTool[]; expiresAt: number } | undefined;
  /** Bumped when the server says its tools changed, so a listing in flight is not cached. */
  private toolsGeneration = 0;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ServerConnectionOptions) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.fetchImpl = options.fetch ?? fetch;
  }

  get serverName(): string {
    return this.options.server.name;
  }

  /** The server's settings from `endpoints.yml`. */
  get server(): McpServer {
    return this.options.server;
  }

  /** The transport that worked, once connected. */
  get transport(): TransportKind | undefined {
    return this.kind;
  }

  async listTools(options: McpCallOptions = {}): Promise<readonly McpTool[]> {
    const held = this.tools;
    if (held && this.now() < held.expiresAt) return held.list;
    const generation = this.toolsGeneration;
    const list = await this.withClient(options, async (client) => {
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await this.limited(options, (limits) =>
          client.listTools(cursor ? { cursor } : undefined, limits),
        );
        for (const tool of page.tools) {
          tools.push({
            name: tool.name,
            ...(tool.description !== undefined ? { description: tool.description } : {}),
            inputSchema: tool.inputSchema,
            ...(typeof tool.annotations?.readOnlyHint === 'boolean'
              ? { readOnlyHint: tool.annotations.readOnlyHint }
              : {}),
          });
        }
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    });
    if (generation === this.toolsGeneration) {
      this.tools = { list, expiresAt: this.now() + (this.options.toolsTtlMs ?? TOOLS_TTL_MS) };
    }
    return list;
  }

  async callTool(request: McpToolRequest, options: McpCallOptions = {}): Promise<McpCallResult> {
    const result = await this.withClient(options, async (client) => {
      const answer = await this.limited(options, (limits) =>
        client.callTool(
          {
            name: request.name,
            arguments: { ...request.arguments },
            ...(request.meta ? { _meta: { ...request.meta } } : {}),
          },
          undefined,
          limits,
        ),
      );
      return {
        isError: answer.isError === true,
        content: Array.isArray(answer.content) ? answer.content : [],
        ...(answer.structuredContent !== undefined
          ? { structuredContent: answer.structuredContent }
          : {}),
      };
    });
    if (result.isError && isUnknownToolResult(result)) this.forgetTools();
    return result;
  }

  /** Forgets the cached tool list: the next listing asks the server. */
  forgetTools(): void {
    this.tools = undefined;
    this.toolsGeneration++;
  }

  async close(): Promise<void> {
    const connected = this.connected;
    this.connected = undefined;
    if (!connected) return;
    const client = await connected.catch(() => undefined);
    await client?.close().catch(() => undefined);
  }

  /**
   * Runs a request on the connected client. A dropped session connects again and a refused
   * OAuth token is renewed, each once, since neither request reached the tool; other failures
   * become `McpUnavailableError` (worth another try later) or `McpRequestError`.
   */
  private async withClient<T>(
    options: McpCallOptions,
    request: (client: Client) => Promise<T>,
  ): Promise<T> {
    let reconnected = false;
    let renewed = false;
    for (;;) {
      const client = await this.client(options);
      try {
        return await request(client);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        const failure = classifyFailure(error);
        if (failure === 'session-lost' && !reconnected) {
          reconnected = true;
          await this.drop(client);
          continue;
        }
        if (failure === 'unauthorized' && !renewed && this.options.auth.renew()) {
          renewed = true;
          continue;
        }
        if (failure === 'request' && /not found|unknown tool/i.test(describeFailure(error))) {
          this.forgetTools();
        }
        throw this.mapped(error, failure);
      }
    }
  }

  /**
   * The connected client. Callers share one connection attempt at a time (made under its own
   * timeout, so that one caller giving up does not fail the others); each waits for it within
   * its own signal and deadline and retries after its own failures, `maxRetries` times.
   */
  private async client(options: McpCallOptions): Promise<Client> {
    if (this.ready && this.ready.from === this.connected) return this.ready.client;
    const retries = options.maxRetries ?? DEFAULT_CONNECT_RETRIES;
    let renewed = false;
    for (let failures = 0; ; ) {
      try {
        return await within(this.attempt(), {
          signal: options.signal,
          deadline: options.deadline,
          timedOut: () =>
            new McpUnavailableError(this.serverName, 'connecting took longer than the time left'),
          now: this.now,
        });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        const failure = classifyFailure(error, true);
        if (failure === 'unauthorized' && !renewed && this.options.auth.renew()) {
          renewed = true;
          continue;
        }
        failures++;
        const delayMs =
          failure === 'unavailable'
            ? retryWait(CONNECT_BACKOFF, failures, {
                retries,
                deadline: options.deadline,
                random: this.random,
                now: this.now,
              })
            : undefined;
        if (delayMs === undefined) throw this.mapped(error, failure, failures);
        // Aborted while waiting: like fetch, rejects with the signal's reason.
        await sleep(delayMs, options.signal);
      }
    }
  }

  /** The connection attempt under way or made; a failed one is forgotten. */
  private attempt(): Promise<Client> {
    if (this.connected) return this.connected;
    const connecting = this.connect();
    this.connected = connecting;
    connecting.then(
      (client) => {
        if (this.connected === connecting) this.ready = { from: connecting, client };
      },
      () => {
        if (this.connected === connecting) this.connected = undefined;
      },
    );
    return connecting;
  }

  /** Closes a client whose session the server dropped; the next request connects anew. */
  private async drop(client: Client): Promise<void> {
    const held = this.connected;
    if (held && (await held.catch(() => undefined)) === client && this.connected === held) {
      this.connected = undefined;
    }
    await client.close().catch(() => undefined);
  }

  /** Connects over Streamable HTTP; a server that refuses it with 400, 404 or 405 gets SSE. */
  private async connect(): Promise<Client> {
    const url = new URL(this.options.server.url);
    if (this.kind !== 'sse') {
      const transport = new StreamableHTTPClientTransport(url, { fetch: this.authorizedFetch });
      try {
        const client = await this.initialize(transport);
        this.kind = 'streamable-http';
        return client;
      } catch (error) {
        if (this.kind === 'streamable-http' || classifyFailure(error, true) !== 'legacy-server') {
          throw error;
        }
      }
    }
    const client = await this.initialize(
      new SSEClientTransport(url, { fetch: this.authorizedFetch }),
    );
    this.kind = 'sse';
    return client;
  }

  private async initialize(transport: Transport): Promise<Client> {
    const client = new Client(CLIENT_INFO, {
      capabilities: {},
      jsonSchemaValidator: OUTPUT_VALIDATOR,
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.forgetTools();
    });
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      return client;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  /** Every request of the transports carries the server's credentials, resolved per request. */
  private readonly authorizedFetch = async (
    url: string | URL,
    init?: RequestInit,
  ): Promise<Response> => {
    const credentials = Object.entries(
      await this.options.auth.headers(init?.signal ? { signal: init.signal } : {}),
    );
    if (credentials.length === 0) return this.fetchImpl(url, init);
    const headers = new Headers(init?.headers);
    for (const [name, value] of credentials) headers.set(name, value);
    return this.fetchImpl(url, { ...init, headers });
  };

  /**
   * Runs one request of the SDK with the time left and a signal of its own, linked to the
   * caller's for the request's time only: the SDK leaves a listener on the signal it is given.
   */
  private async limited<T>(
    options: McpCallOptions,
    request: (limits: { signal?: AbortSignal; timeout: number }) => Promise<T>,
  ): Promise<T> {
    let timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (options.deadline !== undefined) {
      timeout = Math.min(timeout, options.deadline - this.now());
    }
    if (timeout <= 0) {
      throw new McpUnavailableError(this.serverName, 'no time is left for the request');
    }
    if (!options.signal) return request({ timeout });
    const linked = linkedSignal(options.signal);
    try {
      return await request({ timeout, signal: linked.signal });
    } finally {
      linked.dispose();
    }
  }

  private mapped(error: unknown, failure: string, attempts?: number): Error {
    if (error instanceof McpUnavailableError || error instanceof McpRequestError) return error;
    const reason = describeFailure(error, (text) => this.options.auth.redact(text));
    if (failure === 'unavailable' || failure === 'session-lost') {
      const tries = attempts && attempts > 1 ? ` (${attempts} attempts)` : '';
      return new McpUnavailableError(this.serverName, `${reason}${tries}`, { cause: error });
    }
    return new McpRequestError(this.serverName, reason, { cause: error });
  }
}
