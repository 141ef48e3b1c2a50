import type { FlowDefinition, FlowStep, KindedStep, Next } from '../assistant/index.js';
import { END, kindedStep, stepKind } from '../assistant/index.js';

/** Where a transition goes: a step id of the same flow, or the end of the flow. */
export type Target = string;

export type Transition =
  | { readonly type: 'static'; readonly target: Target }
  | {
      readonly type: 'branches';
      readonly branches: readonly { readonly condition: string; readonly target: Target }[];
      /** Taken when no branch holds: the `else` branch, or the step after this one. */
      readonly otherwise: Target;
    };

/** A step ready to run: its id, its kind (a switch on `kind` narrows `step`), where it goes. */
export type CompiledStep = KindedStep & {
  readonly id: string;
  readonly next: Transition;
};

/** A flow compiled for execution: every step (nested ones too) addressable by id. */
export interface FlowGraph {
  readonly id: string;
  readonly definition: FlowDefinition;
  readonly first: Target;
  readonly steps: ReadonlyMap<string, CompiledStep>;
  /** The collect steps of each slot, for corrections. */
  readonly collectSteps: ReadonlyMap<string, readonly string[]>;
  /** Each step's position in the flow as written (nested steps after their parent). */
  readonly order: ReadonlyMap<string, number>;
  /** Flows this flow calls with `call` steps. */
  readonly calledFlows: ReadonlySet<string>;
}

/**
 * Compiles a flow. Steps without an `id` get a stable generated one from their position. A list
 * of nested steps that ends without `next` continues after the step that branched into it.
 */
export function compileFlow(id: string, definition: FlowDefinition): FlowGraph {
  const steps = new Map<string, CompiledStep>();
  const collectSteps = new Map<string, string[]>();
  const order = new Map<string, number>();
  const calledFlows = new Set<string>();

  const compileList = (list: readonly FlowStep[], prefix: string, after: Target): Target => {
    const ids = list.map(
      (step, i) => step.id ?? `${prefix}${i}_${stepKind(step)}_${stepName(step)}`,
    );
    list.forEach((step, i) => {
      const stepId = ids[i] as string;
      order.set(stepId, order.size);
      const fallthrough = ids[i + 1] ?? after;
      const kinded = kindedStep(step);
      const next: Transition =
        kinded.kind === 'link'
          ? { type: 'static', target: END }
          : transition(kinded.step.next, `${stepId}_`, fallthrough);
      steps.set(stepId, { ...kinded, id: stepId, next });
      if (kinded.kind === 'call' && kinded.step.mcp_server === undefined)
        calledFlows.add(kinded.step.call);
      if (kinded.kind === 'collect') {
        const slot = kinded.step.collect;
        collectSteps.set(slot, [...(collectSteps.get(slot) ?? []), stepId]);
      }
    });
    return ids[0] ?? after;
  };

  const transition = (next: Next | undefined, prefix: string, fallthrough: Target): Transition => {
    if (next === undefined) return { type: 'static', target: fallthrough };
    if (typeof next === 'string') return { type: 'static', target: next };
    const branches: { condition: string; target: Target }[] = [];
    let otherwise = fallthrough;
    next.forEach((branch, i) => {
      const body = 'then' in branch ? branch.then : branch.else;
      const target =
        typeof body === 'string' ? body : compileList(body, `${prefix}${i}_`, fallthrough);
      if ('if' in branch) branches.push({ condition: branch.if, target });
      else otherwise = target;
    });
    return { type: 'branches', branches, otherwise };
  };

  const first = compileList(definition.steps, '', END);
  return { id, definition, first, steps, collectSteps, order, calledFlows };
}

function stepName(flowStep: FlowStep): string {
  const { kind, step } = kindedStep(flowStep);
  switch (kind) {
    case 'action':
      return step.action;
    case 'collect':
      return step.collect;
    case 'link':
      return step.link;
    case 'call':
      return step.call;
    case 'set_slots':
    case 'noop':
      return 'step';
    default:
      return unknownKind(kind);
  }
}

function unknownKind(kind: never): never {
  throw new Error(`no name for steps of kind ${String(kind)}`);
}
