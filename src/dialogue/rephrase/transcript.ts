import type { HistoryEntry } from '../state.js';

/**
 * The last `turns` turns of a history, one `USER: …` or `AI: …` line each with line breaks
 * flattened. With `mergeRuns`, consecutive messages of one side count as one turn (one line).
 * At least one turn is kept.
 */
export function recentTranscript(
  history: readonly HistoryEntry[],
  turns: number,
  mergeRuns: boolean,
): string {
  const lines: { speaker: string; text: string }[] = [];
  for (const entry of history) {
    const speaker = entry.role === 'user' ? 'USER' : 'AI';
    const text = flatten(entry.text);
    const last = lines[lines.length - 1];
    if (mergeRuns && last?.speaker === speaker) last.text = `${last.text} ${text}`;
    else lines.push({ speaker, text });
  }
  return lines
    .slice(-Math.max(turns, 1))
    .map((line) => `${line.speaker}: ${line.text}`)
    .join('\n');
}

/** The latest user message as the prompt's `current_input` (`USER: …`), or "" when none. */
export function currentInput(history: readonly HistoryEntry[]): string {
  const latest = history.findLast((entry) => entry.role === 'user');
  return latest ? `USER: ${flatten(latest.text)}` : '';
}

function flatten(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
