import { type FlowStep, KIND, type StepKind } from './schemas/flows.js';

/** The end of a flow, as a `next` target. */
export const END = 'END';

/** Which key a parsed step was recognised by. */
export function stepKind(step: FlowStep): StepKind {
  return (step as unknown as Record<typeof KIND, StepKind>)[KIND];
}
