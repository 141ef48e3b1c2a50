import type { Command } from './command.js';
import { splitOnCommas, unquote } from './quoting.js';

/** Commands written as fixed words, keyed by their lower-cased, single-spaced form. */
const BARE_COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  ['cancel flow', { command: 'cancel flow' }],
  ['offtopic reply', { command: 'offtopic reply' }],
  ['hand over', { command: 'hand over' }],
  ['repeat message', { command: 'repeat message' }],
  ['provide info', { command: 'provide info' }],
  ['search and reply', { command: 'provide info' }],
  ['cannot handle', { command: 'cannot handle', reason: 'cannot_handle_default' }],
  ['skip question', { command: 'skip question' }],
  ['continue agent', { command: 'continue agent' }],
  ['restart agent', { command: 'restart agent' }],
]);

/** Argument-less function forms, keyed by lower-cased function name. */
const BARE_FUNCTIONS: ReadonlyMap<string, Command> = new Map<string, Command>([
  ['cancelflow', { command: 'cancel flow' }],
  ['chitchat', { command: 'offtopic reply' }],
  ['knowledgeanswer', { command: 'provide info' }],
  ['searchandreply', { command: 'provide info' }],
  ['cannothandle', { command: 'cannot handle', reason: 'cannot_handle_default' }],
  ['continueagent', { command: 'continue agent' }],
  ['skipquestion', { command: 'skip question' }],
  ['humanhandoff', { command: 'hand over' }],
  ['repeatlastbotmessages', { command: 'repeat message' }],
]);

const START_FLOW = /^start\s+flow\s+(\S+)$/i;
const SET_SLOT = /^set\s+slot\s+(\S+)(?:\s+(.*))?$/i;
const DISAMBIGUATE = /^disambiguate\s+flows\s+(.+)$/i;
const FUNCTION_CALL = /^([a-z]+)\s*\((.*)\)\s*;?$/i;

/**
 * Reads one cleaned line of the command DSL leniently, for lines Rasa's own parsers read nothing
 * from; `undefined` when it is not a command.
 */
export function parseDslLine(line: string): Command | undefined {
  const bare = BARE_COMMANDS.get(line.toLowerCase().replace(/\s+/g, ' '));
  if (bare !== undefined) return { ...bare };

  const start = START_FLOW.exec(line);
  if (start?.[1] !== undefined) return startFlow(start[1]);

  const set = SET_SLOT.exec(line);
  if (set?.[1] !== undefined) return setSlot(set[1], set[2]);

  const disambiguate = DISAMBIGUATE.exec(line);
  if (disambiguate?.[1] !== undefined) {
    return disambiguateFlows(disambiguate[1].split(/[\s,]+/));
  }

  const call = FUNCTION_CALL.exec(line);
  if (call?.[1] !== undefined && call[2] !== undefined) return parseFunction(call[1], call[2]);
  return undefined;
}

function parseFunction(name: string, body: string): Command | undefined {
  const lower = name.toLowerCase();
  const bare = BARE_FUNCTIONS.get(lower);
  if (bare !== undefined) return { ...bare };
  const args = splitOnCommas(body);
  if (args === undefined) return undefined;
  const [first, ...rest] = args;
  switch (lower) {
    case 'startflow':
      return rest.length === 0 && first !== undefined ? startFlow(first) : undefined;
    case 'setslot':
      // Rejoin so an unquoted value that contains commas survives intact.
      return first === undefined ? undefined : setSlot(first, rest.join(','));
    case 'clarify':
      // Older prompts sometimes wrap the ids in a list: Clarify([a, b]).
      return disambiguateFlows(body.replace(/^\s*\[|\]\s*$/g, '').split(','));
    default:
      return undefined;
  }
}

function startFlow(raw: string): Command | undefined {
  const flow = unquote(raw.trim());
  return flow === '' || /\s/.test(flow) ? undefined : { command: 'start flow', flow };
}

function setSlot(rawName: string, rawValue: string | undefined): Command | undefined {
  const name = unquote(rawName.trim());
  if (name === '' || /\s/.test(name)) return undefined;
  const value = rawValue?.trim() ?? '';
  return { command: 'set slot', name, value: value === '' ? null : unquote(value) };
}

function disambiguateFlows(raw: string[]): Command | undefined {
  const flows = raw.map((id) => unquote(id.trim())).filter((id) => id !== '');
  return flows.length === 0 ? undefined : { command: 'disambiguate flows', flows };
}
