import type { Assistant, LlmConfig } from '../assistant/index.js';
import type { LlmPort, RephrasePort } from '../dialogue/index.js';
import { describeError, type LogFields, type Logger } from '../resilience/index.js';

/**
 * The rephrasing port of an assistant whose endpoints.yml turns rephrasing on: the model its
 * `nlg.llm` block names, with failures logged. None when the command generator or that model is
 * a scripted stand-in (the demo model), which keeps the demo conversation as written.
 */
export function rephrasePort(
  assistant: Assistant,
  models: (llm: LlmConfig | undefined) => LlmPort,
  commandModel: LlmPort,
  logger: Logger,
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
        { response, error: describeError(error) },
      ),
  };
}

/** Logs when the entry point gives no logger: warnings and errors, one JSON line each on stderr. */
export const STDERR_LOGGER: Logger = {
  debug: () => {},
  info: () => {},
  warn: (message, fields) => writeLine('WARN', message, fields),
  error: (message, fields) => writeLine('ERROR', message, fields),
};

function writeLine(level: string, message: string, fields: LogFields): void {
  process.stderr.write(`${JSON.stringify({ level, message, ...fields })}\n`);
}
