import * as z from 'zod';
import type { Command } from './command.js';
import { parseJsonText, splitOnCommas, unquote } from './quoting.js';

const SET_SLOTS = /^\/SetSlots\s*\(/;
const START_FLOW = /^\/StartFlow\s*\(/;
const INTENT = /^\/([A-Za-z_][\w.-]*)(.*)$/s;
const Entities = z.record(z.string(), z.unknown());

/**
 * Turns a `/SetSlots(...)`, `/StartFlow(...)` or `/intent{...}` message into commands without the
 * LLM; `undefined` when the message is not such a shortcut. `intents` maps intent → flow id.
 */
export function parseDeterministicMessage(
  text: string,
  intents: ReadonlyMap<string, string>,
): Command[] | undefined {
  const message = text.trim();
  if (SET_SLOTS.test(message)) return parseSetSlots(message);
  if (START_FLOW.test(message)) return parseStartFlow(message);

  const intent = INTENT.exec(message);
  if (intent?.[1] === undefined) return undefined;
  const [, name, rest = ''] = intent;
  // Entities are accepted for Rasa compatibility, but only the intent chooses the flow.
  if (rest.trim() !== '' && !Entities.safeParse(parseJsonText(rest)).success) return undefined;
  const flow = intents.get(name);
  if (flow === undefined) return [cannotHandle(`unknown intent "${name}"`)];
  return [{ command: 'start flow', flow }];
}

function parseSetSlots(message: string): Command[] {
  const body = argumentsOf(message);
  if (body === undefined) return [cannotHandle('/SetSlots(...) is missing its closing ")"')];
  const pairs = splitOnCommas(body);
  if (pairs === undefined) return [cannotHandle('/SetSlots(...) has an unclosed quote')];

  const commands: Command[] = [];
  for (const pair of pairs) {
    // A trailing comma leaves an empty pair; that is sloppy, not ambiguous.
    if (pair.trim() === '') continue;
    const equals = pair.indexOf('=');
    const name = equals < 0 ? '' : unquote(pair.slice(0, equals).trim());
    if (name === '') {
      return [cannotHandle(`/SetSlots(...) needs name=value pairs, got "${pair.trim()}"`)];
    }
    const value = unquote(pair.slice(equals + 1).trim());
    commands.push({ command: 'set slot', name, value: value === '' ? null : value });
  }
  return commands;
}

function parseStartFlow(message: string): Command[] {
  const body = argumentsOf(message);
  if (body === undefined) return [cannotHandle('/StartFlow(...) is missing its closing ")"')];
  const flow = unquote(body.trim());
  if (flow === '' || /\s/.test(flow)) {
    return [cannotHandle(`/StartFlow(...) needs one flow id, got "${body.trim()}"`)];
  }
  return [{ command: 'start flow', flow }];
}

/** The text between the first `(` and a closing `)` that ends the message. */
function argumentsOf(message: string): string | undefined {
  if (!message.endsWith(')')) return undefined;
  return message.slice(message.indexOf('(') + 1, -1);
}

function cannotHandle(reason: string): Command {
  return { command: 'cannot handle', reason };
}
