import type { FlowStep } from '../../assistant/index.js';
import { formatKeyPath, type KeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import type { ProjectIndex } from '../projectIndex.js';

/** A flow that (through other flows) calls itself would never end: report the closing call. */
export function checkCallCycles(ctx: LoadContext, index: ProjectIndex): void {
  const calls = new Map<string, { target: string; path: KeyPath }[]>();
  for (const [id, flow] of index.flows) {
    const found: { target: string; path: KeyPath }[] = [];
    const walk = (steps: readonly FlowStep[], at: KeyPath): void => {
      steps.forEach((step, i) => {
        const path = [...at, i];
        if ('call' in step && step.mcp_server === undefined && index.flows.has(step.call)) {
          found.push({ target: step.call, path: [...path, 'call'] });
        }
        if ('next' in step && Array.isArray(step.next)) {
          step.next.forEach((branch, j) => {
            const body = 'then' in branch ? branch.then : branch.else;
            if (Array.isArray(body))
              walk(body, [...path, 'next', j, 'then' in branch ? 'then' : 'else']);
          });
        }
      });
    };
    walk(flow.value.steps, [...flow.path, 'steps']);
    calls.set(id, found);
  }
  const reported = new Set<string>();
  const finished = new Set<string>();
  const visit = (id: string, trail: string[]): void => {
    if (finished.has(id)) return;
    for (const call of calls.get(id) ?? []) {
      const cycleStart = trail.indexOf(call.target);
      if (cycleStart >= 0) {
        const cycle = [...trail.slice(cycleStart), call.target];
        const key = [...cycle].sort().join(',');
        if (reported.has(key)) continue;
        reported.add(key);
        const flow = index.flows.get(id);
        if (flow) {
          ctx.error(
            flow.source,
            call.path,
            `${formatKeyPath(call.path)} "${call.target}" makes flows call each other in a loop (${cycle.join(' → ')}), which would never end`,
          );
        }
      } else {
        visit(call.target, [...trail, call.target]);
      }
    }
    finished.add(id);
  };
  for (const id of calls.keys()) visit(id, [id]);
}
