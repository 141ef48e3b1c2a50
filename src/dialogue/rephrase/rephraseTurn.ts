import type { DialogueEvent } from '../events.js';
import type { DialogueModel } from '../model.js';
import type { DialoguePorts, LlmPort, RephraseFailure, RephrasePort } from '../ports.js';
import type { BotMessage } from '../responses/botMessage.js';
import { type ConversationState, replay } from '../state.js';
import type { TurnResult } from '../turnResult.js';
import { REPHRASED_FROM, type RephraseCandidate, rephraseCandidates } from './candidates.js';
import type { RephraseSetup } from './setup.js';
import { currentInput, recentTranscript } from './transcript.js';

/** What bounds a turn's model calls. */
export interface RephraseOptions {
  readonly signal?: AbortSignal;
  /** When calls must be over (ms since the epoch). */
  readonly deadline?: number;
}

/** The language the prompt asks for; Switchboard assistants have no language setting. */
const LANGUAGE = 'English';

/**
 * Rewrites a settled turn's flagged responses with the rephrase model, all at once, before they
 * are sent or stored: each message's text becomes the model's, and its bot event keeps the
 * template's text under `metadata.rephrased_from` (next to the response name, `utter_action`).
 * A call that fails or runs out of time leaves its message as written. The state is folded again
 * from `start` over the rewritten events, so the history holds what the user saw.
 */
export async function rephraseTurn<T extends TurnResult>(
  model: DialogueModel,
  start: ConversationState,
  result: T,
  ports: DialoguePorts,
  options: RephraseOptions,
): Promise<T> {
  const setup = model.rephrase;
  const port = ports.rephrase;
  if (!setup || !port || result.events.length === 0) return result;
  const candidates = rephraseCandidates(setup, start, result.events);
  if (candidates.length === 0) return result;

  const deadline = Math.min(
    options.deadline ?? Number.POSITIVE_INFINITY,
    ports.now() + setup.timeoutMs,
  );
  const call: Call = (prompt, failure) => complete(port, prompt, failure, { ...options, deadline });
  const summary = setup.settings.summarize_history
    ? await summarize(setup, candidates, call)
    : undefined;
  const texts = await Promise.all(
    candidates.map(async (candidate) => {
      const text = await call(() => render(setup, candidate, summary), {
        response: candidate.response,
        stage: 'rephrase',
      });
      return text?.trim();
    }),
  );
  options.signal?.throwIfAborted();

  const events: DialogueEvent[] = [...result.events];
  const messages: BotMessage[] = [...result.messages];
  candidates.forEach((candidate, i) => {
    const text = texts[i];
    if (!text) return;
    const event = events[candidate.event];
    const message = messages[candidate.message];
    if (event?.event !== 'bot' || !message) return;
    events[candidate.event] = {
      ...event,
      text,
      metadata: { ...event.metadata, [REPHRASED_FROM]: candidate.text },
    };
    messages[candidate.message] = {
      ...message,
      text,
      metadata: { ...message.metadata, [REPHRASED_FROM]: candidate.text },
    };
  });
  return { ...result, state: replay(start, events), events, messages };
}

type Call = (
  prompt: () => string,
  failure: Omit<RephraseFailure, 'error'>,
) => Promise<string | undefined>;

/**
 * One summary of the recent turns for the whole turn (of the conversation up to its first
 * flagged message); the transcript stands in when the model fails.
 */
async function summarize(
  setup: RephraseSetup,
  candidates: readonly RephraseCandidate[],
  call: Call,
): Promise<string | undefined> {
  const first = candidates[0];
  if (!first) return undefined;
  const conversation = transcriptOf(setup, first);
  const summary = await call(() => setup.summaryPrompt.render({ conversation }), {
    response: first.response,
    stage: 'summary',
  });
  return summary?.trim() || undefined;
}

function render(
  setup: RephraseSetup,
  candidate: RephraseCandidate,
  summary: string | undefined,
): string {
  return candidate.prompt.render({
    history: summary ?? transcriptOf(setup, candidate),
    current_input: currentInput(candidate.history),
    suggested_response: candidate.text,
    slots: candidate.slots,
    language: LANGUAGE,
  });
}

function transcriptOf(setup: RephraseSetup, candidate: RephraseCandidate): string {
  const { max_historical_turns, count_multiple_utterances_as_single_turn } = setup.settings;
  return recentTranscript(
    candidate.history,
    max_historical_turns,
    count_multiple_utterances_as_single_turn,
  );
}

/**
 * The model's answer to a prompt, or undefined when rendering the prompt (a project's template)
 * or the call fails; the port hears of the failure.
 */
async function complete(
  port: RephrasePort,
  prompt: () => string,
  failure: Omit<RephraseFailure, 'error'>,
  options: RephraseOptions,
): Promise<string | undefined> {
  try {
    const { content } = await ask(port.llm, prompt(), options);
    return content;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    port.failed({ ...failure, error });
    return undefined;
  }
}

function ask(llm: LlmPort, prompt: string, options: RephraseOptions) {
  return llm.complete({
    messages: [{ role: 'user', content: prompt }],
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
  });
}
