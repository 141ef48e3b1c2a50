import { createHash } from 'node:crypto';
import { type Assistant, BUILTIN_ACTIONS } from '../assistant/index.js';
import type { ActionContext, ActionPort, ActionResult } from '../dialogue/index.js';
import type { Logger } from '../resilience/index.js';
import type { SecretStore } from '../runtime/index.js';
import { answerOutcome } from './answer.js';
import { ActionServerClient, type ServerReply } from './client.js';
import { rasaDomain, sendsDomain } from './domain.js';
import { ActionServerError, PythonActionError } from './errors.js';
import { rasaTracker } from './tracker.js';

/** The Rasa version the requests name: the protocol they follow is Rasa 3's. */
export const RASA_VERSION = '3.14.0';

export interface ActionServerOptions {
  readonly assistant: Assistant;
  readonly secrets: SecretStore;
  /** Where the port reports what went wrong or was left aside. Values, never credentials. */
  readonly logger?: Logger;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  readonly random?: () => number;
}

/**
 * The actions of the domain that run outside Switchboard: those the domain lists that are not
 * TypeScript functions or responses (nor built-ins, unless an action server replaces them). With `action_endpoint.url` they run on that Rasa
 * action server; with only `actions_module` each fails, saying it is Python; otherwise there are
 * none.
 */
export function actionServerActions(options: ActionServerOptions): ActionPort {
  const { assistant } = options;
  const typescript = new Set(assistant.actions);
  const endpoint = assistant.actionEndpoint;
  const url = endpoint?.url;
  // A domain action named as a built-in replaces it on the action server, as Rasa lets a
  // project replace action_session_start; Rasa's in-process module cannot, so the built-in runs.
  const names = new Set(
    assistant.domainActions.filter(
      (name) =>
        !typescript.has(name) &&
        !name.startsWith('utter_') &&
        (url !== undefined || !BUILTIN_ACTIONS.has(name)) &&
        assistant.responses[name] === undefined,
    ),
  );
  if (endpoint === undefined || url === undefined) {
    const module = endpoint?.actions_module;
    if (module === undefined) return { has: () => false, run: unknownAction };
    return {
      has: (name) => names.has(name),
      run: async (name) => {
        if (!names.has(name)) return unknownAction(name);
        throw new PythonActionError(name, module);
      },
    };
  }
  const client = new ActionServerClient({
    endpoint: { ...endpoint, url },
    secrets: options.secrets,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.random ? { random: options.random } : {}),
  });
  const { domain, digest } = rasaDomain(assistant);
  const intents = new Set(assistant.intents);
  const declaredSlots = Object.keys(assistant.slots);
  const { logger } = options;

  const call = async (name: string, context: ActionContext): Promise<ActionResult> => {
    const withDomain = sendsDomain(assistant, name);
    const body = {
      next_action: name,
      sender_id: context.senderId,
      tracker: rasaTracker(context, intents),
      ...(withDomain ? { domain } : {}),
      domain_digest: digest,
      version: RASA_VERSION,
    };
    const callOptions = {
      ...(context.callKey !== undefined
        ? { idempotencyKey: idempotencyKey(context.senderId, context.callKey, name) }
        : {}),
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.deadline !== undefined ? { deadline: context.deadline } : {}),
    };
    let reply: ServerReply = await client.post(name, body, callOptions);
    if (reply.kind === 'domain-missing' && !withDomain) {
      reply = await client.post(name, { ...body, domain }, callOptions);
    }
    if (reply.kind === 'domain-missing') {
      throw new ActionServerError(
        `the action server at ${client.address} asked for the domain it was sent (HTTP 449)`,
        449,
      );
    }
    const where = { action: name, server: client.address, flow: context.flowId };
    if (reply.kind === 'rejected') {
      logger?.warn('action server rejected an action', { ...where, reason: reply.reason });
      return { rejected: reply.reason };
    }
    const known = new Set([...Object.keys(context.slots), ...declaredSlots]);
    const { result, ignored } = answerOutcome(reply.answer, name, known);
    if (ignored.length > 0) {
      logger?.warn('action server answer left partly aside', { ...where, ignored });
    }
    return result;
  };

  return {
    has: (name) => names.has(name),
    run: async (name, context) => {
      if (!names.has(name)) return unknownAction(name);
      try {
        return await call(name, context);
      } catch (error) {
        if (!context.signal?.aborted) {
          logger?.error('action server call failed', {
            action: name,
            server: client.address,
            flow: context.flowId,
            error: error instanceof Error ? error.message : String(error),
          });
        }
        throw error;
      }
    },
  };
}

/**
 * The project's custom actions: its TypeScript functions first, then the actions of its action
 * server (or of Rasa's Python module, which fail saying so).
 */
export function projectActions(typescript: ActionPort, options: ActionServerOptions): ActionPort {
  const server = actionServerActions(options);
  return {
    has: (name) => typescript.has(name) || server.has(name),
    run: (name, context) =>
      typescript.has(name) ? typescript.run(name, context) : server.run(name, context),
  };
}

/** A fixed-length key for one call, the same on every try and every run of its job. */
function idempotencyKey(senderId: string, callKey: string, name: string): string {
  return createHash('sha256')
    .update([senderId, callKey, name].join('\u0000'))
    .digest('base64url')
    .slice(0, 32);
}

async function unknownAction(name: string): Promise<never> {
  throw new Error(`custom action ${name} is not defined`);
}
