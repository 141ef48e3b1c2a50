import { BUILTIN_ACTIONS } from '../../assistant/index.js';
import type { LoadContext } from '../loadContext.js';
import type { ProjectIndex } from '../projectIndex.js';

/**
 * What runs an action a flow names: a response, one of Switchboard's (and Rasa's) built-in
 * actions, a function of `custom/actions.ts`, a Rasa action server (the domain lists the action
 * and `action_endpoint.url` is set), or Rasa's in-process Python module, which cannot run here.
 * `listed` is a domain action nothing runs; `unknown`, a name nothing defines.
 */
export type ActionSource =
  | 'response'
  | 'builtin'
  | 'typescript'
  | 'server'
  | 'python'
  | 'listed'
  | 'unknown';

export function actionSource(ctx: LoadContext, index: ProjectIndex, name: string): ActionSource {
  const declared = ctx.declared;
  const server = hasActionServer(ctx, index);
  if (declared.responses.has(name)) return 'response';
  if (declared.actions.has(name)) return 'typescript';
  // A domain action on the action server replaces a built-in of the same name, as in Rasa.
  if (declared.domainActions.has(name) && server) return 'server';
  if (BUILTIN_ACTIONS.has(name)) return 'builtin';
  if (!declared.domainActions.has(name)) return 'unknown';
  if (server) return 'server';
  if (index.actionEndpoint?.value.actions_module !== undefined || declared.actionsModule) {
    return 'python';
  }
  return 'listed';
}

/**
 * Whether endpoints.yml names a Rasa action server. Read from the file as written, so that an
 * error elsewhere in endpoints.yml is not reported again as a missing `action_endpoint.url`.
 */
export function hasActionServer(ctx: LoadContext, index: ProjectIndex): boolean {
  return index.actionEndpoint?.value.url !== undefined || ctx.declared.actionServer;
}

/** Whether a flow may name the action: something runs it, here or (with a note) in Rasa. */
export function isRunnable(source: ActionSource): boolean {
  return source !== 'listed' && source !== 'unknown';
}

/**
 * Why an action a flow names cannot run, for its error message; `suggestion` (a did-you-mean)
 * goes after the names it was chosen among.
 */
export function actionProblem(
  source: ActionSource,
  name: string,
  hasServer: boolean,
  suggestion: string,
): string | undefined {
  if (source === 'listed') {
    return `is listed in the domain's actions, but nothing runs it: export a function ${name} from custom/actions.ts, or set action_endpoint.url to a Rasa action server`;
  }
  if (source !== 'unknown') return undefined;
  return hasServer
    ? `is neither a response, a built-in action, a function exported by custom/actions.ts, nor an action the domain lists for the action server${suggestion}; add it to the domain's actions`
    : `is neither a response, a built-in action, nor a function exported by custom/actions.ts${suggestion}; to run it on a Rasa action server, list it in the domain's actions and set action_endpoint.url`;
}

/**
 * One note for the actions that only Rasa's in-process Python module would run: which they are,
 * and how to run them here.
 */
export function notePythonActions(
  ctx: LoadContext,
  index: ProjectIndex,
  used: ReadonlySet<string>,
): void {
  const endpoint = index.actionEndpoint;
  const module = endpoint?.value.actions_module;
  if (!endpoint || module === undefined || endpoint.value.url !== undefined || used.size === 0) {
    return;
  }
  const names = [...used].sort();
  ctx.note(
    endpoint.source,
    [...endpoint.path, 'actions_module'],
    `action_endpoint.actions_module "${module}" runs Python inside Rasa, which Switchboard cannot do: ${names.length} action(s) the flows use will not run here (${names.join(', ')}). Serve them from a Rasa action server (rasa run actions) and set action_endpoint.url, or write them in custom/actions.ts; until then a flow that reaches one gets pattern_internal_error`,
  );
}
