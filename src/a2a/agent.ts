/**
 * The class users extend in `custom/` to shape what an A2A agent receives and what its answers
 * do: `processInput` before each message goes out, `processOutput` once the agent has answered
 * (turn artifacts or structured results into slot events, reword the reply).
 */
import type { A2ASubAgent, AgentInput, AgentOutput } from '../assistant/index.js';

export class A2AAgent {
  constructor(readonly config: A2ASubAgent) {}

  /**
   * Reshapes the input before it is sent (filter slots, add non-secret context to `metadata`,
   * which travels as the message's metadata). Runs once per message sent.
   */
  async processInput(input: AgentInput): Promise<AgentInput> {
    return input;
  }

  /**
   * Reshapes the agent's answer before the flow sees it: completed, waiting for the user, or
   * failed. `structuredResults` holds the data parts of its artifacts (one list per artifact);
   * return `events` to set slots from them.
   */
  async processOutput(output: AgentOutput): Promise<AgentOutput> {
    return output;
  }
}

/** A class users may name in an A2A agent's `configuration.module`. */
export type A2AAgentClass = new (config: A2ASubAgent) => A2AAgent;

/** Whether `value` is `A2AAgent` or a class that extends it. */
export function isA2AAgentClass(value: unknown): value is A2AAgentClass {
  return typeof value === 'function' && (value === A2AAgent || value.prototype instanceof A2AAgent);
}
