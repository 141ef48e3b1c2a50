import type { Command } from './command.js';

/**
 * Rasa's command parsers, read the way Rasa reads a line of the model's answer: every command's
 * patterns of every syntax Rasa's generators use (the function style of the older generators,
 * `StartFlow(x)`, and the DSL of the compact and search-ready ones, `start flow x`) are tried on
 * the line, and each that matches gives its command. Case and spacing are Rasa's: exact.
 */

// Python's \W and [\s\W\d] as Rasa's patterns use them on text: Unicode-aware.
const NON_WORD = String.raw`[^\p{L}\p{N}_]`;
const LEAD = String.raw`^[^\p{L}\p{Nl}\p{No}_]*`;
const QUOTES = `['"\`]`;
const SLOT = '([a-zA-Z_][a-zA-Z0-9_-]*)';
const ID = '([a-zA-Z0-9_-]+)';
const OPTIONS = `(["'a-zA-Z0-9_, -]*)`;

/** A DSL command of fixed words, as `^[\s\W\d]*cancel flow['"`]*$`. */
const bare = (words: string) => new RegExp(`${LEAD}${words}${QUOTES}*$`, 'u');
/** A function-style command without arguments, as `CancelFlow\(\)`, found anywhere in the line. */
const call = (name: string) => new RegExp(`${name}\\(\\)`, 'u');

interface CommandSyntax {
  readonly patterns: readonly RegExp[];
  readonly read: (match: RegExpExecArray) => Command | undefined;
}

/** In the order of Rasa's default commands, then the cannot-handle command. */
const SYNTAXES: readonly CommandSyntax[] = [
  {
    patterns: [
      new RegExp(`SetSlot\\(['"]?${SLOT}['"]?, ?['"]?(.*)['"]?\\)`, 'u'),
      new RegExp(`${LEAD}set slot ${QUOTES}?${SLOT}${QUOTES}? ${QUOTES}?(.+?)${NON_WORD}*$`, 'u'),
    ],
    read: (m) => setSlot(m[1] ?? '', m[2] ?? ''),
  },
  {
    patterns: [
      new RegExp(`StartFlow\\(['"]?${ID}['"]?\\)`, 'u'),
      new RegExp(`${LEAD}start flow ${QUOTES}?${ID}${QUOTES}*`, 'u'),
    ],
    read: (m) => ({ command: 'start flow', flow: m[1] ?? '' }),
  },
  fixed(['CancelFlow'], ['cancel flow'], { command: 'cancel flow' }),
  fixed(['ChitChat'], ['offtopic reply'], { command: 'offtopic reply' }),
  fixed(['SkipQuestion'], ['skip question'], { command: 'skip question' }),
  fixed(['SearchAndReply'], ['provide info', 'search and reply'], { command: 'provide info' }),
  fixed(['HumanHandoff'], ['hand over'], { command: 'hand over' }),
  {
    patterns: [
      new RegExp(`Clarify\\(${OPTIONS}\\)`, 'u'),
      new RegExp(`${LEAD}disambiguate flows ${OPTIONS}${NON_WORD}*$`, 'u'),
    ],
    read: (m) => clarify(m[1] ?? ''),
  },
  fixed(['RepeatLastBotMessages'], ['repeat message'], { command: 'repeat message' }),
  fixed(['ContinueAgent'], ['continue agent'], { command: 'continue agent' }),
  {
    patterns: [
      new RegExp(`RestartAgent\\(['"]?${ID}['"]?\\)`, 'u'),
      new RegExp(`${LEAD}restart agent ${QUOTES}?${ID}${QUOTES}*`, 'u'),
    ],
    read: (m) => ({ command: 'restart agent', agent: m[1] ?? '' }),
  },
  // Rasa's own reason for a model that answers it cannot handle the message.
  fixed(['CannotHandle'], ['cannot handle'], {
    command: 'cannot handle',
    reason: 'cannot_handle_default',
  }),
];

/** The commands Rasa's parsers read from one line of the model's answer; none when none match. */
export function parseRasaLine(line: string): Command[] {
  const commands: Command[] = [];
  for (const syntax of SYNTAXES) {
    for (const pattern of syntax.patterns) {
      const match = pattern.exec(line);
      if (match === null) continue;
      const command = syntax.read(match);
      if (command !== undefined) commands.push(command);
      break;
    }
  }
  return commands;
}

function fixed(calls: readonly string[], words: readonly string[], command: Command) {
  return {
    patterns: [...calls.map(call), ...words.map(bare)],
    read: () => ({ ...command }),
  } satisfies CommandSyntax;
}

/**
 * As Rasa: quotes and spaces around the value are dropped, Rasa's null words mean no value, and
 * a slot named `flow_name` is the model starting a flow the wrong way.
 */
function setSlot(name: string, raw: string): Command {
  const value = raw.replace(/^['" ]+|['" ]+$/g, '');
  const nullable = NULL_WORDS.has(value) ? null : value;
  if (name === 'flow_name' && nullable !== null) return { command: 'start flow', flow: nullable };
  return { command: 'set slot', name, value: nullable };
}

const NULL_WORDS = new Set(['', '[missing information]', '[missing]', 'None', 'undefined', 'null']);

/** The flows offered, sorted and without quotes, as Rasa lists them; none is no command. */
function clarify(options: string): Command | undefined {
  const flows = options
    .replaceAll(',', ' ')
    .split(' ')
    .map((option) =>
      option
        .trim()
        .replace(/^"+|"+$/g, '')
        .replace(/^'+|'+$/g, ''),
    )
    .filter((option) => option !== '');
  if (flows.length === 0) return undefined;
  return { command: 'disambiguate flows', flows: [...new Set(flows)].sort() };
}
