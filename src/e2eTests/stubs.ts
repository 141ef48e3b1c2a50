import { type Diagnostic, type KeyPath, type YamlSource, zodDiagnostics } from '../config/index.js';
import type { ActionContext, ActionPort, ActionResult, BotMessage } from '../dialogue/index.js';
import { type RunningCase, scopedKeys } from './runningCase.js';
import { StubAction, StubEvent, type StubResponse } from './schema.js';
import type { ActionStub } from './testCase.js';

/** Reads one entry of `stub_custom_actions`: `slot` and `bot` events, and responses. */
export function parseStub(
  source: YamlSource,
  value: unknown,
  path: KeyPath,
  errors: Diagnostic[],
): ActionStub | undefined {
  const stub = StubAction.safeParse(value);
  if (!stub.success) {
    errors.push(...zodDiagnostics(stub.error, source, value, path));
    return undefined;
  }
  const slots: Record<string, unknown> = {};
  const messages: BotMessage[] = [];
  let ok = true;
  (stub.data.events ?? []).forEach((raw, i) => {
    const event = StubEvent.safeParse(raw);
    if (!event.success) {
      const name = (raw as { event?: unknown } | null)?.event;
      errors.push(
        source.diagnostic(
          [...path, 'events', i],
          `a stubbed action's event must be a "slot" event ({event: slot, name, value}) or a "bot" event ({event: bot, text}); got ${typeof name === 'string' ? `"${name}"` : 'something else'}`,
        ),
      );
      ok = false;
      return;
    }
    if (event.data.event === 'slot') slots[event.data.name] = event.data.value;
    else messages.push(botEventMessage(event.data));
  });
  for (const response of stub.data.responses ?? []) messages.push(responseMessage(response));
  return ok ? { slots, messages } : undefined;
}

function botEventMessage(event: Extract<StubEvent, { event: 'bot' }>): BotMessage {
  const data = event.data ?? {};
  const buttons = data.buttons as BotMessage['buttons'];
  return {
    ...(event.text !== undefined ? { text: event.text } : {}),
    ...(Array.isArray(buttons) ? { buttons } : {}),
    ...(typeof data.image === 'string' ? { image: data.image } : {}),
    ...(data.custom !== undefined ? { custom: data.custom } : {}),
  };
}

function responseMessage(response: StubResponse): BotMessage {
  return {
    ...(response.text !== undefined ? { text: response.text } : {}),
    ...(response.buttons ? { buttons: response.buttons } : {}),
    ...(response.image !== undefined ? { image: response.image } : {}),
    ...(response.custom !== undefined ? { custom: response.custom } : {}),
    ...(response.response !== undefined ? { response: response.response } : {}),
  };
}

/**
 * The project's actions with the suite's stubs in front: a stub for `<test case>::<action>`
 * wins over one for `<action>`, which wins over the action itself. A stubbed action need not
 * exist in the project, as in Rasa.
 */
export function stubbedActions(
  actions: ActionPort,
  stubs: ReadonlyMap<string, ActionStub>,
  running: RunningCase,
): ActionPort {
  if (stubs.size === 0) return actions;
  const stubFor = (name: string) =>
    scopedKeys(running, name)
      .map((key) => stubs.get(key))
      .find((stub) => stub !== undefined);
  return {
    has: (name) => stubFor(name) !== undefined || actions.has(name),
    run: async (name: string, context: ActionContext): Promise<ActionResult> => {
      const stub = stubFor(name);
      return stub
        ? { slots: { ...stub.slots }, messages: [...stub.messages] }
        : actions.run(name, context);
    },
  };
}
