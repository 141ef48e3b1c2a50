/**
 * The example's research agent: the general-purpose agent, plus one hook. When the catalog
 * describes a model, the model becomes the `car_model` slot, so that a test drive booked later
 * in the conversation is for the car the user looked at.
 */

import type { AgentSlotEvent } from 'switchboard/sdk';
import { type AgentToolResult, McpOpenAgent } from 'switchboard/sdk';

export class CarResearchAgent extends McpOpenAgent {
  override async processToolOutput(
    current: Readonly<Record<string, AgentToolResult>>,
  ): Promise<readonly AgentSlotEvent[]> {
    const events: AgentSlotEvent[] = [];
    for (const result of Object.values(current)) {
      if (result.toolName !== 'get_car_details' || result.isError || !result.result) continue;
      const model = modelOf(result.result);
      if (model) events.push({ event: 'slot', name: 'car_model', value: model });
    }
    return events;
  }
}

/** The `model` of the car a catalog answer describes (its JSON is the answer's last line). */
function modelOf(text: string): string | undefined {
  for (const line of text.split('\n').reverse()) {
    try {
      const value: unknown = JSON.parse(line);
      if (
        value &&
        typeof value === 'object' &&
        'model' in value &&
        typeof value.model === 'string'
      ) {
        return value.model;
      }
    } catch {
      // Not the JSON line.
    }
  }
  return undefined;
}
