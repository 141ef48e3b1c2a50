/** The neutral MCP client the rest of Switchboard uses; `ServerConnection` implements it. */

/** A tool as a server describes it. */
export interface McpTool {
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of the arguments. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** The server's `annotations.readOnlyHint`: a hint, which counts only where it is trusted. */
  readonly readOnlyHint?: boolean;
}

/** What a tool call answered. */
export interface McpCallResult {
  readonly isError: boolean;
  readonly content: readonly unknown[];
  readonly structuredContent?: unknown;
}

/** One `tools/call` request. */
export interface McpToolRequest {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Sent as `params._meta`. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** Limits of one request: aborting, a deadline, a timeout, connection retries. */
export interface McpCallOptions {
  readonly signal?: AbortSignal;
  /** When the request must be over (ms since the epoch). */
  readonly deadline?: number;
  /** The longest the request may take (a tool's `tool_timeout`), within the deadline. */
  readonly timeoutMs?: number;
  /** How often connecting is tried again after a failure worth another try. */
  readonly maxRetries?: number;
}

export interface McpClient {
  listTools(options?: McpCallOptions): Promise<readonly McpTool[]>;
  callTool(request: McpToolRequest, options?: McpCallOptions): Promise<McpCallResult>;
  close(): Promise<void>;
}
