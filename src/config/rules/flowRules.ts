import {
  type CallStep,
  END,
  type FlowDefinition,
  type FlowStep,
  isTemplated,
  kindedStep,
  NATIVE_PATTERN_STEPS,
  type Next,
  PATTERN_CONTEXT_KEYS,
  referencedContext,
} from '../../assistant/index.js';
import { compileTemplate, TemplateSyntaxError } from '../../prompts/environment.js';
import { formatKeyPath, type KeyPath } from '../keyPath.js';
import type { LoadContext } from '../loadContext.js';
import type { Defined, ProjectIndex } from '../projectIndex.js';
import type { YamlSource } from '../yamlSource.js';
import { didYouMean } from '../zodDiagnostics.js';
import { actionProblem, actionSource, hasActionServer, isRunnable } from './actionSources.js';
import { checkCallCycles } from './callCycles.js';
import { checkCondition, checkResponseExists, checkSlotExists } from './conditions.js';
import { checkNativePatternOverrides } from './nativePatterns.js';
import { slotValueProblem } from './slotValues.js';
import { checkTemplatedText, noteTemplatedSteps } from './templatedSteps.js';

/**
 * Rules on flows: references to slots, responses, flows, agents, servers, actions and step ids.
 * Returns the actions the flows use that only Rasa's Python module would run.
 */
export function checkFlows(ctx: LoadContext, index: ProjectIndex): Set<string> {
  const pythonActions = new Set<string>();
  for (const [id, flow] of index.flows) {
    new FlowChecker(ctx, index, id, flow, pythonActions).check();
  }
  checkCallCycles(ctx, index);
  checkNativePatternOverrides(ctx, index);
  return pythonActions;
}

class FlowChecker {
  private readonly source: YamlSource;
  private readonly stepIds = new Map<string, KeyPath>();
  /** Where the steps hold Jinja, rendered when they run. */
  private readonly templated: KeyPath[] = [];

  constructor(
    private readonly ctx: LoadContext,
    private readonly index: ProjectIndex,
    private readonly id: string,
    private readonly flow: Defined<FlowDefinition>,
    private readonly pythonActions: Set<string>,
  ) {
    this.source = flow.source;
  }

  check(): void {
    const { value: flow, path } = this.flow;
    if (typeof flow.if === 'string') this.condition([...path, 'if'], flow.if);
    flow.persisted_slots?.forEach((slot, i) => {
      this.slot([...path, 'persisted_slots', i], slot);
    });
    this.collectIds(flow.steps, [...path, 'steps']);
    this.steps(flow.steps, [...path, 'steps']);
    // Rasa's own collect patterns are what collect steps do; their rule says so instead.
    if (NATIVE_PATTERN_STEPS[this.id] === undefined) {
      noteTemplatedSteps(this.ctx, this.source, this.templated, this.id);
    }
  }

  private collectIds(steps: readonly FlowStep[], at: KeyPath): void {
    steps.forEach((step, i) => {
      const path = [...at, i];
      if (step.id !== undefined) {
        const first = this.stepIds.get(step.id);
        if (first) {
          this.ctx.error(
            this.source,
            [...path, 'id'],
            `step id "${step.id}" is used twice in flow "${this.id}" (first at ${formatKeyPath(first)})`,
          );
        } else {
          this.stepIds.set(step.id, path);
        }
      }
      if ('next' in step && Array.isArray(step.next)) {
        step.next.forEach((branch, j) => {
          const target = 'then' in branch ? branch.then : branch.else;
          const key = 'then' in branch ? 'then' : 'else';
          if (Array.isArray(target)) this.collectIds(target, [...path, 'next', j, key]);
        });
      }
    });
  }

  private steps(steps: readonly FlowStep[], at: KeyPath): void {
    steps.forEach((step, i) => {
      const path = [...at, i];
      this.step(step, path, i === steps.length - 1);
      if ('next' in step && step.next !== undefined) this.next(step.next, [...path, 'next']);
    });
  }

  private step(flowStep: FlowStep, path: KeyPath, last: boolean): void {
    const { kind, step } = kindedStep(flowStep);
    switch (kind) {
      case 'action':
        if (isTemplated(step.action)) this.template([...path, 'action'], step.action);
        else this.action([...path, 'action'], step.action);
        return;
      case 'collect': {
        const known = this.slot([...path, 'collect'], step.collect);
        if (step.utter !== undefined) {
          checkResponseExists(this.ctx, this.source, [...path, 'utter'], step.utter);
        } else if (known && this.mayAsk(step.collect, step.ask_before_filling)) {
          this.question([...path, 'collect'], step.collect);
        }
        // Rasa validates a collected value with the project's validate_<slot> action.
        if (actionSource(this.ctx, this.index, `validate_${step.collect}`) === 'python') {
          this.pythonActions.add(`validate_${step.collect}`);
        }
        step.rejections.forEach((rejection, j) => {
          this.condition([...path, 'rejections', j, 'if'], rejection.if);
          checkResponseExists(
            this.ctx,
            this.source,
            [...path, 'rejections', j, 'utter'],
            rejection.utter,
          );
        });
        return;
      }
      case 'set_slots':
        step.set_slots.forEach((entry, j) => {
          for (const [slot, value] of Object.entries(entry)) {
            const at = [...path, 'set_slots', j, slot];
            if (!this.slot(at, slot, 'key')) continue;
            const definition = this.index.slots.get(slot)?.value;
            const problem = definition && slotValueProblem(definition, value);
            if (problem) {
              this.ctx.error(
                this.source,
                at,
                `${formatKeyPath(at)} ${JSON.stringify(value)}: ${problem}`,
              );
            }
          }
        });
        return;
      case 'link':
        if (!this.ctx.declared.flows.has(step.link)) this.unknownFlow([...path, 'link'], step.link);
        if (!last) {
          this.ctx.error(
            this.source,
            [...path, 'link'],
            'a link step ends its flow, so it must be the last step of its list',
          );
        }
        return;
      case 'call':
        this.call(step, path);
        return;
      case 'noop':
        return;
      default:
        unknownKind(kind);
    }
  }

  private call(step: CallStep, path: KeyPath): void {
    if (step.mcp_server !== undefined) {
      if (!this.ctx.declared.servers.has(step.mcp_server)) {
        this.ctx.error(
          this.source,
          [...path, 'mcp_server'],
          `${formatKeyPath([...path, 'mcp_server'])} "${step.mcp_server}" is not an MCP server in endpoints.yml${didYouMean(step.mcp_server, [...this.ctx.declared.servers])}`,
        );
      }
      if (step.exit_if) {
        this.ctx.error(
          this.source,
          [...path, 'exit_if'],
          'exit_if applies to sub agent calls, not to MCP tool calls',
          'key',
        );
      }
      step.mapping?.input.forEach((entry, i) => {
        this.slot([...path, 'mapping', 'input', i, 'slot'], entry.slot);
      });
      step.mapping?.output.forEach((entry, i) => {
        this.slot([...path, 'mapping', 'output', i, 'slot'], entry.slot);
        this.expression([...path, 'mapping', 'output', i, 'value'], entry.value);
      });
      return;
    }
    if (step.mapping) {
      this.ctx.error(
        this.source,
        [...path, 'mapping'],
        'mapping applies only to MCP tool calls; add mcp_server',
        'key',
      );
    }
    const declared = this.ctx.declared;
    if (!declared.agents.has(step.call) && !declared.flows.has(step.call)) {
      const known = [...this.ctx.declared.flows, ...this.ctx.declared.agents];
      this.ctx.error(
        this.source,
        [...path, 'call'],
        `${formatKeyPath([...path, 'call'])} "${step.call}" is neither a flow nor a sub agent${didYouMean(step.call, known)} (to call an MCP tool, add mcp_server)`,
      );
      return;
    }
    if (!step.exit_if) return;
    const agent = this.index.agents.get(step.call);
    const isFlow = !declared.agents.has(step.call);
    if (isFlow || agent?.protocol === 'A2A') {
      const what = isFlow ? 'a flow' : 'an A2A agent, which ends its task itself';
      this.ctx.error(
        this.source,
        [...path, 'exit_if'],
        `exit_if applies only to ReAct sub agents; "${step.call}" is ${what}`,
        'key',
      );
      return;
    }
    step.exit_if.forEach((text, i) => {
      const condition = this.condition([...path, 'exit_if', i], text);
      if (condition && !/\bslots\.\w/.test(text)) {
        this.ctx.error(
          this.source,
          [...path, 'exit_if', i],
          `exit_if condition "${text}" reads no slot, so the agent could never fill it`,
        );
      }
    });
  }

  private next(next: Next, path: KeyPath): void {
    if (typeof next === 'string') {
      this.target(path, next);
      return;
    }
    next.forEach((branch, i) => {
      if ('if' in branch && isTemplated(branch.if)) this.template([...path, i, 'if'], branch.if);
      else if ('if' in branch) this.condition([...path, i, 'if'], branch.if);
      const key = 'then' in branch ? 'then' : 'else';
      const target = 'then' in branch ? branch.then : branch.else;
      if (typeof target === 'string') this.target([...path, i, key], target);
      else this.steps(target, [...path, i, key]);
    });
    next.slice(0, -1).forEach((branch, i) => {
      if ('else' in branch) {
        this.ctx.error(
          this.source,
          [...path, i, 'else'],
          'else must be the last branch of next',
          'key',
        );
      }
    });
  }

  private target(path: KeyPath, target: string): void {
    if (target === END || this.stepIds.has(target)) return;
    this.ctx.error(
      this.source,
      path,
      `${formatKeyPath(path)} "${target}" is not a step id in flow "${this.id}"${didYouMean(target, [...this.stepIds.keys(), END])} (use END to finish the flow)`,
    );
  }

  private action(path: KeyPath, name: string): void {
    if (name.startsWith('utter_')) {
      checkResponseExists(this.ctx, this.source, path, name);
      return;
    }
    const source = actionSource(this.ctx, this.index, name);
    if (source === 'python') this.pythonActions.add(name);
    const hasServer = hasActionServer(this.ctx, this.index);
    const declared = this.ctx.declared;
    const suggestion = didYouMean(name, [...declared.actions, ...declared.domainActions]);
    const problem = actionProblem(source, name, hasServer, suggestion);
    if (problem !== undefined) {
      this.ctx.error(this.source, path, `${formatKeyPath(path)} "${name}" ${problem}`);
    }
  }

  /**
   * Whether a collect step can come to ask: not when its slot starts filled and the step keeps
   * what it holds (as Rasa, such a step then needs no question).
   */
  private mayAsk(slot: string, askBeforeFilling: boolean): boolean {
    const initial = this.index.slots.get(slot)?.value.initial_value;
    return askBeforeFilling || initial === undefined || initial === null;
  }

  /**
   * A collect step asks with `utter_ask_<slot>` or, as Rasa allows, runs `action_ask_<slot>`.
   */
  private question(path: KeyPath, slot: string): void {
    if (this.ctx.declared.responses.has(`utter_ask_${slot}`)) return;
    const action = `action_ask_${slot}`;
    const source = actionSource(this.ctx, this.index, action);
    if (source === 'python') this.pythonActions.add(action);
    if (isRunnable(source)) return;
    this.ctx.error(
      this.source,
      path,
      `collecting "${slot}" needs a response utter_ask_${slot} in the domain, an action ${action}, or an "utter" key naming the question`,
    );
  }

  private condition(path: KeyPath, text: string) {
    const condition = checkCondition(this.ctx, this.source, path, text);
    const keys = PATTERN_CONTEXT_KEYS[this.id];
    if (condition && keys) {
      for (const [key] of referencedContext(condition)) {
        if (key === undefined || keys.includes(key)) continue;
        const known = keys.length > 0 ? ` (it has ${keys.join(', ')})` : ' (it has none)';
        this.ctx.error(
          this.source,
          path,
          `${formatKeyPath(path)} reads context.${key}, which ${this.id}'s context does not hold${didYouMean(key, keys)}${known}`,
        );
      }
    }
    return condition;
  }

  /** Jinja in an action name or a `next` condition: rendered when the step runs. */
  private template(path: KeyPath, text: string): void {
    this.templated.push(path);
    checkTemplatedText(this.ctx, this.source, path, text, this.id);
  }

  private slot(path: KeyPath, name: string, anchor: 'key' | 'value' = 'value'): boolean {
    return checkSlotExists(this.ctx, this.source, path, name, anchor);
  }

  private unknownFlow(path: KeyPath, name: string): void {
    this.ctx.error(
      this.source,
      path,
      `${formatKeyPath(path)} "${name}" is not a flow${didYouMean(name, [...this.ctx.declared.flows])}`,
    );
  }

  private expression(path: KeyPath, expression: string): void {
    try {
      compileTemplate(`{{ ${expression} }}`, formatKeyPath(path));
    } catch (error) {
      if (!(error instanceof TemplateSyntaxError)) throw error;
      this.ctx.error(
        this.source,
        path,
        `${formatKeyPath(path)} is not a valid expression: ${error.message}`,
      );
    }
  }
}

function unknownKind(kind: never): never {
  throw new Error(`no rule for steps of kind ${String(kind)}`);
}
