import { describe, expect, it } from 'vitest';
import type { McpToolCall } from '../../../src/dialogue/index.js';
import {
  type GatewayCall,
  type McpCallOptions,
  type McpCallResult,
  type McpGateway,
  McpUnavailableError,
  mcpFlowTools,
} from '../../../src/mcp/index.js';
import type { Logger } from '../../../src/resilience/index.js';

/** A gateway that records each call with its options and answers with `answer`. */
function gatewayStub(answer: () => Promise<McpCallResult>) {
  const calls: Array<{ call: GatewayCall; options: McpCallOptions | undefined }> = [];
  const gateway = {
    call: async (call: GatewayCall, options?: McpCallOptions) => {
      calls.push({ call, options });
      return answer();
    },
  } as unknown as McpGateway;
  return { gateway, calls };
}

/** A logger that keeps each line as `level message fields`. */
function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields)}`);
  };
  return {
    lines,
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
  };
}

const addStep: McpToolCall = {
  serverName: 'calculator',
  toolName: 'add',
  arguments: { a: 1, b: 2 },
  senderId: 'ada',
  flowId: 'add_numbers',
  stepId: 'sum',
  slots: { a: 1 },
  callKey: 'turn-1|add_numbers|sum|0',
};
const sum: McpCallResult = {
  isError: false,
  content: [{ type: 'text', text: '3' }],
  structuredContent: { sum: 3 },
};
const failed: McpCallResult = { isError: true, content: [{ type: 'text', text: 'it failed' }] };
const WHERE = '"flow":"add_numbers","step":"sum","server":"calculator","tool":"add"';

describe('mcpFlowTools', () => {
  it('calls the step’s tool with the step in the hook’s context and returns its result', async () => {
    const stub = gatewayStub(async () => sum);
    const tools = mcpFlowTools(stub.gateway);

    const result = await tools.callTool(addStep);

    expect(result).toEqual(sum);
    expect(stub.calls.map((c) => c.call)).toEqual([
      {
        serverName: 'calculator',
        toolName: 'add',
        arguments: { a: 1, b: 2 },
        slots: { a: 1 },
        context: {
          senderId: 'ada',
          toolName: 'add',
          serverName: 'calculator',
          flowId: 'add_numbers',
          stepId: 'sum',
        },
        callKey: 'turn-1|add_numbers|sum|0',
      },
    ]);
  });

  it('passes the step’s signal and deadline on to the call', async () => {
    const stub = gatewayStub(async () => sum);
    const signal = new AbortController().signal;

    await mcpFlowTools(stub.gateway).callTool({ ...addStep, signal, deadline: 1_000 });
    await mcpFlowTools(stub.gateway).callTool({ ...addStep, deadline: 0 });

    expect(stub.calls[0]?.options?.signal).toBe(signal);
    expect(stub.calls[0]?.options?.deadline).toBe(1_000);
    expect(stub.calls[1]?.options?.deadline).toBe(0);
  });

  it('warns, naming the step, when the tool answers with an error, and returns the result', async () => {
    const logger = recordingLogger();
    const tools = mcpFlowTools(gatewayStub(async () => failed).gateway, logger);

    const result = await tools.callTool(addStep);

    expect(result).toEqual(failed);
    expect(logger.lines).toEqual([`warn MCP tool of a flow answered with an error {${WHERE}}`]);
  });

  it('logs nothing when the tool answers', async () => {
    const logger = recordingLogger();

    await mcpFlowTools(gatewayStub(async () => sum).gateway, logger).callTool(addStep);

    expect(logger.lines).toEqual([]);
  });

  it('returns an error result without a logger', async () => {
    const tools = mcpFlowTools(gatewayStub(async () => failed).gateway);

    expect(await tools.callTool(addStep)).toEqual(failed);
  });

  it('logs a failed call with the step and the reason and rethrows the failure', async () => {
    const error = new McpUnavailableError('calculator', 'connect ECONNREFUSED 127.0.0.1:9');
    const logger = recordingLogger();
    const tools = mcpFlowTools(gatewayStub(() => Promise.reject(error)).gateway, logger);

    await expect(tools.callTool(addStep)).rejects.toBe(error);

    expect(logger.lines).toEqual([
      `error MCP tool call of a flow failed {${WHERE},"error":"MCP server calculator: connect ECONNREFUSED 127.0.0.1:9"}`,
    ]);
  });

  it('rethrows a failed call without a logger', async () => {
    const error = new McpUnavailableError('calculator', 'timed out');
    const tools = mcpFlowTools(gatewayStub(() => Promise.reject(error)).gateway);

    await expect(tools.callTool(addStep)).rejects.toBe(error);
  });

  it('does not log a call the flow aborted, and rethrows its reason', async () => {
    const controller = new AbortController();
    controller.abort(new Error('the turn was cancelled'));
    const logger = recordingLogger();
    const tools = mcpFlowTools(
      gatewayStub(() => Promise.reject(controller.signal.reason)).gateway,
      logger,
    );

    await expect(tools.callTool({ ...addStep, signal: controller.signal })).rejects.toThrow(
      'the turn was cancelled',
    );

    expect(logger.lines).toEqual([]);
  });
});
