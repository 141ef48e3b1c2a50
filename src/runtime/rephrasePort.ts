import type { Assistant, LlmConfig } from '../assistant/index.js';
import type { LlmPort, RephrasePort } from '../dialogue/index.js';

/** Where a response left as written is reported. */
export interface RephraseLogger {
  warn(message: string, fields: Record<string, unknown>): void;
}

/**
 * The rephrasing port of an assistant whose endpoints.yml turns rephrasing on: the model its
 * `nlg.llm` block names, with failures logged. None when the command generator or that model is
 * a scripted stand-in (the demo model), which keeps the demo conversation as written.
 */
export function rephrasePort(
  assistant: Assistant,
  models: (llm: LlmConfig | undefined) => LlmPort,
  commandModel: LlmPort,
  logger: RephraseLogger,
): RephrasePort | undefined {
  const settings = assistant.rephraser;
  if (!settings || commandModel.scripted) return undefined;
  const llm = models(settings.llm);
  if (llm.scripted) return undefined;
  return {
    llm,
    failed: ({ response, stage, error }) =>
      logger.warn(
        stage === 'summary'
          ? 'summarizing the history for rephrasing failed; the transcript is used'
          : 'rephrasing a response failed; it is sent as written',
        { response, error: describe(error) },
      ),
  };
}

/** Logs of rephrasing failures when the entry point gives no logger: one JSON line on stderr. */
export const STDERR_LOGGER: RephraseLogger = {
  warn: (message, fields) =>
    process.stderr.write(`${JSON.stringify({ level: 'WARN', message, ...fields })}\n`),
};

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
