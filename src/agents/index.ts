export type { AgentInputSlot, AgentSlotEvent } from './protocol.js';
export { AgentInput, AgentOutput, AgentStatus } from './protocol.js';
