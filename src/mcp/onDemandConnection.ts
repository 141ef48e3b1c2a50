/**
 * A server's connection whose MCP client loads at its first request: the SDK's modules build
 * hundreds of schemas as they load, and a cold start that serves flows (or A2A agents) need not.
 */
import type { McpServer } from '../assistant/index.js';
import type {
  McpCallOptions,
  McpCallResult,
  McpClient,
  McpTool,
  McpToolRequest,
} from './client.js';
import type { ServerConnection, ServerConnectionOptions, TransportKind } from './connection.js';

export class OnDemandConnection implements McpClient {
  private loading: Promise<ServerConnection> | undefined;
  private loaded: ServerConnection | undefined;

  constructor(private readonly options: ServerConnectionOptions) {}

  /** The server's settings from `endpoints.yml`. */
  get server(): McpServer {
    return this.options.server;
  }

  /** The transport that worked, once connected. */
  get transport(): TransportKind | undefined {
    return this.loaded?.transport;
  }

  async listTools(options: McpCallOptions = {}): Promise<readonly McpTool[]> {
    return (this.loaded ?? (await this.connection())).listTools(options);
  }

  async callTool(request: McpToolRequest, options: McpCallOptions = {}): Promise<McpCallResult> {
    return (this.loaded ?? (await this.connection())).callTool(request, options);
  }

  /** Forgets the cached tool list; before the first request there is none. */
  forgetTools(): void {
    this.loaded?.forgetTools();
  }

  async close(): Promise<void> {
    const loading = this.loading;
    this.loading = undefined;
    this.loaded = undefined;
    const connection = await loading?.catch(() => undefined);
    await connection?.close();
  }

  private connection(): Promise<ServerConnection> {
    if (!this.loading) {
      const loading = import('./connection.js').then(({ ServerConnection }) => {
        const connection = new ServerConnection(this.options);
        if (this.loading === loading) this.loaded = connection;
        return connection;
      });
      this.loading = loading;
      // A module that failed to load is tried again by the next request.
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    }
    return this.loading;
  }
}
