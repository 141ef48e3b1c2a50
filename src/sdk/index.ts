/**
 * `switchboard/sdk`: what a project's TypeScript (`custom/`) builds on. The ReAct agent classes
 * and their hooks, custom tools and what their executors are given, custom actions, pre-call
 * hooks, and the A2A agent class; with the types of what they receive and return; and the
 * contract of a development peer module (`switchboard run --peers FILE`).
 *
 * The runtime, the CLI and the Lambda bundles resolve this entry to the same source they are
 * built from (the `switchboard-source` export condition), so a class a project extends here is the
 * class the runtime checks with `instanceof`. Elsewhere (a project's own tests, an editor) it is
 * the compiled `dist/sdk/`.
 */
export { A2AAgent, type A2AAgentClass } from '../a2a/agent.js';
export type {
  AgentStep,
  AgentStepPhase,
  AgentStepResult,
  AgentToolContext,
  AgentToolResult,
  CustomToolDefinition,
} from '../agents/protocol.js';
export {
  McpBaseAgent,
  McpOpenAgent,
  McpTaskAgent,
  type ReactAgentClass,
} from '../agents/reactAgent.js';
export type {
  A2ASubAgent,
  AgentInput,
  AgentInputSlot,
  AgentOutput,
  AgentSlotEvent,
  ReactSubAgent,
} from '../assistant/index.js';
export type { PeerContext, RunningPeer, StartPeer } from '../cli/peers.js';
export type { ActionContext, ActionResult, CustomAction } from '../extensions/actions.js';
export type {
  OutboundCallContext,
  OutboundCallResult,
  PreCallHook,
} from '../extensions/outboundCallHook.js';
export type { ToolDefinition } from '../llm/index.js';
