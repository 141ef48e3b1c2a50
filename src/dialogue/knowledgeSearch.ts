import { type McpVectorStore, PATTERN } from '../assistant/index.js';
import { isTransient, retryAfterOf } from '../resilience/index.js';
import { startAgent } from './agentCall.js';
import type { TurnContext } from './context.js';
import { ToolUnavailableError } from './errors.js';
import { failCurrentActivity, patternData, startPattern } from './frameLifecycle.js';
import type { StepFrame } from './frames.js';
import type { McpToolResult } from './ports.js';
import type { StepOutcome } from './stepOutcome.js';
import { utter, utterOptions } from './utter.js';

/** The longest failure reason kept in the error pattern. */
const MAX_REASON = 500;

/**
 * `action_trigger_search`: answers the user's question from the knowledge source endpoints.yml's
 * `vector_store` names, as Rasa's EnterpriseSearchPolicy answers from its vector store. An MCP
 * search tool's text is the answer; a sub agent answers itself. Without a source, the project
 * has no knowledge base to search.
 */
export async function triggerSearch(ctx: TurnContext, frame: StepFrame): Promise<StepOutcome> {
  const source = ctx.model.assistant.knowledge;
  if (source === undefined) {
    utter(
      ctx.model,
      ctx.turn,
      'utter_no_knowledge_base',
      utterOptions(ctx, patternData(ctx, frame)),
    );
    return 'advance';
  }
  if (source.type === 'agent') {
    const agent = ctx.model.assistant.agents[source.agent];
    if (agent) return startAgent(ctx, frame, agent);
    failCurrentActivity(ctx, `the knowledge agent ${source.agent} does not exist`);
    return 'yield';
  }
  return searchTool(ctx, frame, source);
}

async function searchTool(
  ctx: TurnContext,
  frame: StepFrame,
  source: McpVectorStore,
): Promise<StepOutcome> {
  const where = `search tool ${source.tool} on ${source.server}`;
  let result: McpToolResult;
  try {
    result = await ctx.ports.mcp.callTool({
      serverName: source.server,
      toolName: source.tool,
      arguments: { ...source.arguments, [source.query_param]: question(ctx) },
      senderId: ctx.turn.senderId,
      flowId: frame.flow_id,
      stepId: frame.step_id,
      slots: ctx.turn.slots,
      callKey: [ctx.callKey ?? '', frame.frame_id, frame.step_id, ctx.turn.nextToolCall()].join(
        '|',
      ),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    });
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, MAX_REASON);
    const failure = `${where} failed: ${reason}`;
    if (ctx.retryUnavailable && isTransient(error)) {
      throw new ToolUnavailableError(failure, retryAfterOf(error), { cause: error });
    }
    // As Rasa when its vector store cannot be searched: the internal-error pattern.
    failCurrentActivity(ctx, failure);
    return 'yield';
  }
  if (result.isError) {
    failCurrentActivity(ctx, `${where} returned an error`);
    return 'yield';
  }
  const answer = textOf(result);
  if (answer === '') {
    // As Rasa when nothing relevant is found.
    startPattern(ctx, PATTERN.cannotHandle, { reason: 'cannot_handle_no_relevant_answer' });
    return 'yield';
  }
  ctx.turn.say({ text: answer });
  return 'advance';
}

/** What the user asked: the message of this turn, else the latest one the user sent. */
function question(ctx: TurnContext): string {
  if (ctx.turn.userMessage !== undefined) return ctx.turn.userMessage;
  const history = ctx.turn.snapshot().history;
  return history.findLast((entry) => entry.role === 'user')?.text ?? '';
}

/** The text parts of a tool result, in order. */
function textOf(result: McpToolResult): string {
  return (result.content ?? [])
    .flatMap((part) => {
      const item = part as { type?: unknown; text?: unknown };
      return item.type === 'text' && typeof item.text === 'string' ? [item.text] : [];
    })
    .join('\n')
    .trim();
}
