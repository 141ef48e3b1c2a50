import type { Command } from './command.js';
import { parseDslLine } from './dslLine.js';

const LIST_MARKER = /^(?:[-*•+]|\d+[.)])\s*/;

/**
 * Parses an LLM answer in Rasa's command DSL, one command a line, ignoring lines that are not
 * commands. Never throws: unparseable non-blank output becomes a single `cannot handle`.
 */
export function parseCommandDsl(output: string): Command[] {
  const lines = output
    .split(/\r?\n/)
    .map(cleanLine)
    .filter((line) => line !== '');
  if (lines.length === 0) return [];

  const commands: Command[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const command = parseDslLine(line);
    if (command === undefined) continue;
    // Every field is a string, null or string array, so JSON text identifies a command exactly.
    const key = JSON.stringify(command);
    if (seen.has(key)) continue;
    seen.add(key);
    commands.push(command);
  }
  if (commands.length > 0) return commands;
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
