import type {
  ActionStep,
  CallStep,
  CollectStep,
  FlowStep,
  LinkStep,
  NoopStep,
  SetSlotsStep,
  StepKind,
} from './schemas/flows.js';

/** The end of a flow, as a `next` target. */
export const END = 'END';

/** The parsed step type of each kind. */
export interface StepOfKind {
  readonly action: ActionStep;
  readonly collect: CollectStep;
  readonly set_slots: SetSlotsStep;
  readonly link: LinkStep;
  readonly call: CallStep;
  readonly noop: NoopStep;
}

/** A step with its kind beside it, so that a switch on `kind` narrows `step`. */
export type KindedStep = {
  readonly [K in StepKind]: { readonly kind: K; readonly step: StepOfKind[K] };
}[StepKind];

/** Pairs a parsed step with its kind, read from the one kind key validation left it. */
export function kindedStep(step: FlowStep): KindedStep {
  if ('action' in step) return { kind: 'action', step };
  if ('collect' in step) return { kind: 'collect', step };
  if ('set_slots' in step) return { kind: 'set_slots', step };
  if ('link' in step) return { kind: 'link', step };
  if ('call' in step) return { kind: 'call', step };
  if ('noop' in step) return { kind: 'noop', step };
  return unknownStep(step);
}

/** Which key a parsed step was recognised by. */
export function stepKind(step: FlowStep): StepKind {
  return kindedStep(step).kind;
}

function unknownStep(step: never): never {
  throw new Error(`a step needs one of its kind keys: ${JSON.stringify(step)}`);
}

/**
 * Whether a step's action name or condition holds Jinja (`validate_{{context.collect}}`), which
 * Rasa renders with the frame's context each time the step runs.
 */
export function isTemplated(text: string): boolean {
  return /\{\{|\{%/.test(text);
}
