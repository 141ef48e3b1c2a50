import type { Command } from './command.js';
import { parseDslLine } from './dslLine.js';
import { parseRasaLine } from './rasaSyntax.js';

const LIST_MARKER = /^(?:[-*•+]|\d+[.)])\s*/;

/**
 * Parses an LLM answer in Rasa's command DSL, one command a line, ignoring lines that are not
 * commands. A line is read as Rasa's parsers read it; one they read nothing from is read more
 * leniently (keywords in any case, code fences, an empty `set slot` value). Never throws:
 * unparseable non-blank output becomes a single `cannot handle`.
 */
export function parseCommandDsl(output: string): Command[] {
  const commands: Command[] = [];
  const seen = new Set<string>();
  let text = false;
  for (const raw of output.split(/\r?\n/)) {
    const line = raw.trim();
    const rasa = line === '' ? [] : parseRasaLine(line);
    const clean = cleanLine(line);
    if (rasa.length === 0 && clean === '') continue;
    text = true;
    const lenient = rasa.length === 0 ? parseDslLine(clean) : undefined;
    for (const command of lenient ? [lenient] : rasa) {
      // Every field is a string, null or string array, so JSON text identifies a command exactly.
      const key = JSON.stringify(command);
      if (seen.has(key)) continue;
      seen.add(key);
      commands.push(command);
    }
  }
  if (commands.length > 0 || !text) return commands;
  return [
    { command: 'cannot handle', reason: 'The model output could not be parsed as commands.' },
  ];
}

/** Strips fences, list markers and inline-code backticks; fence lines become blank. */
function cleanLine(raw: string): string {
  const line = raw.trim();
  if (line.startsWith('```')) return '';
  return line
    .replace(/```$/, '')
    .trim()
    .replace(LIST_MARKER, '')
    .replace(/^`(.*)`$/, '$1')
    .trim();
}
