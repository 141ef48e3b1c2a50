/**
 * The MCP side of Switchboard: one pooled connection per configured server, created on first
 * use and kept for the container's life, and the calls flows and agents make through it, each
 * with its `_meta` (meta_map, the server's call-time credential hook, an idempotency key).
 */
import type { Assistant, McpServer } from '../assistant/index.js';
import type { OutboundCallContext, PreCallHook } from '../extensions/index.js';
import type { Logger } from '../resilience/index.js';
import type { SecretStore } from '../runtime/index.js';
import { serverAuth } from './auth.js';
import type { McpCallOptions, McpCallResult } from './client.js';
import { conversationSecretHook } from './conversationSecretHook.js';
import { McpToolRefusedError } from './errors.js';
import { callMeta, idempotencyKey } from './meta.js';
import { OnDemandConnection } from './onDemandConnection.js';
import { runPreCallHook } from './preCallHooks.js';

export interface McpGatewayOptions {
  readonly assistant: Pick<Assistant, 'mcpServers'>;
  readonly secrets: SecretStore;
  /** The project's `pre_call_hook` functions, by the dotted path `endpoints.yml` names. */
  readonly hooks?: Readonly<Record<string, PreCallHook>>;
  /** Where MCP logs go: debug lines name metadata keys, never values. */
  readonly logger?: Logger;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly fetch?: typeof fetch;
  readonly toolsTtlMs?: number;
}

/** One tool call with what its `_meta` and hook need. */
export interface GatewayCall {
  readonly serverName: string;
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Current slot values, for `meta_map.from_slots`. */
  readonly slots: Readonly<Record<string, unknown>>;
  /** What the hook is told (sender, flow and step, or agent). */
  readonly context: OutboundCallContext;
  /** Identifies the call across retries of its job; hashed into the idempotency key. */
  readonly callKey: string;
}

export class McpGateway {
  private readonly connections = new Map<string, OnDemandConnection>();
  private readonly builtinHooks = new Map<string, PreCallHook>();

  constructor(private readonly options: McpGatewayOptions) {}

  /** The pooled connection to a configured server. */
  connection(serverName: string): OnDemandConnection {
    const held = this.connections.get(serverName);
    if (held) return held;
    const server = this.server(serverName);
    const { now, random, fetch, toolsTtlMs } = this.options;
    const connection = new OnDemandConnection({
      server,
      auth: serverAuth(server, this.options.secrets, {
        ...(now ? { now } : {}),
        ...(fetch ? { fetch } : {}),
      }),
      ...(now ? { now } : {}),
      ...(random ? { random } : {}),
      ...(fetch ? { fetch } : {}),
      ...(toolsTtlMs !== undefined ? { toolsTtlMs } : {}),
    });
    this.connections.set(serverName, connection);
    return connection;
  }

  /**
   * Calls a tool with its `_meta`. A hook that throws or returns something other than metadata
   * aborts the call before it reaches the server (`PreCallHookError`).
   */
  async call(call: GatewayCall, options: McpCallOptions = {}): Promise<McpCallResult> {
    const server = this.server(call.serverName);
    const hookMetadata = await this.hookMetadata(server, call.context);
    const meta = callMeta(
      server,
      call.slots,
      hookMetadata,
      idempotencyKey(call.serverName, call.toolName, call.callKey),
    );
    this.options.logger?.debug('calling MCP tool', {
      server: call.serverName,
      tool: call.toolName,
      metaKeys: Object.keys(meta),
    });
    return this.connection(call.serverName).callTool(
      { name: call.toolName, arguments: call.arguments, meta },
      options,
    );
  }

  /** Closes every connection (tests, and the local stack when it stops). */
  async close(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((c) => c.close()));
  }

  private server(serverName: string): McpServer {
    const server = this.options.assistant.mcpServers[serverName];
    if (!server) throw new McpToolRefusedError(`no MCP server named ${serverName} is configured`);
    return server;
  }

  private async hookMetadata(
    server: McpServer,
    context: OutboundCallContext,
  ): Promise<Readonly<Record<string, unknown>>> {
    if (server.pre_call_hook) {
      const hook = this.options.hooks?.[server.pre_call_hook];
      if (!hook) {
        throw new McpToolRefusedError(
          `the pre_call_hook ${server.pre_call_hook} of MCP server ${server.name} is not loaded`,
        );
      }
      return runPreCallHook(server.pre_call_hook, hook, context);
    }
    if (server.conversation_secret) {
      let hook = this.builtinHooks.get(server.name);
      if (!hook) {
        hook = conversationSecretHook(
          server.conversation_secret,
          this.options.secrets,
          this.options.now,
        );
        this.builtinHooks.set(server.name, hook);
      }
      return runPreCallHook(`conversation_secret of ${server.name}`, hook, context);
    }
    return {};
  }
}
