import type nunjucks from 'nunjucks';
import type { DialogueEvent } from '../events.js';
import { applyEvent, type ConversationState, type HistoryEntry } from '../state.js';
import type { RephraseSetup } from './setup.js';

/** Metadata key of a rephrased bot event: the text the response's template gave. */
export const REPHRASED_FROM = 'rephrased_from';

type BotEvent = Extract<DialogueEvent, { event: 'bot' }>;

/** A message of the turn to rephrase, with the conversation as it stood when it was said. */
export interface RephraseCandidate {
  /** Its bot event's position among the turn's events. */
  readonly event: number;
  /** Its position among the turn's messages (one per bot event, in order). */
  readonly message: number;
  /** The response's name. */
  readonly response: string;
  /** The text as the template gave it: the suggested response. */
  readonly text: string;
  readonly prompt: nunjucks.Template;
  /** Messages before this one (the state's bounded history window). */
  readonly history: readonly HistoryEntry[];
  readonly slots: Readonly<Record<string, unknown>>;
}

/**
 * The turn's messages to rephrase: domain responses with text whose `metadata.rephrase` is true
 * (or, with `rephrase_all`, not false). Messages that are no response of the domain (an agent's
 * or a custom action's own text) are not, and neither is a rephrased message said again
 * (`repeat message`), so that the user hears it as before.
 */
export function rephraseCandidates(
  setup: RephraseSetup,
  start: ConversationState,
  events: readonly DialogueEvent[],
): RephraseCandidate[] {
  const repeats = rephrasedTexts([...start.last_bot_events, ...start.recent_events]);
  const candidates: RephraseCandidate[] = [];
  let state = start;
  let message = 0;
  events.forEach((event, i) => {
    if (event.event === 'bot') {
      const response = event.metadata?.utter_action;
      const text = event.text;
      if (
        typeof response === 'string' &&
        text !== undefined &&
        text.trim() !== '' &&
        wantsRephrasing(event, setup.settings.rephrase_all) &&
        !repeats.has(key(response, text))
      ) {
        candidates.push({
          event: i,
          message,
          response,
          text,
          prompt: promptFor(setup, event),
          history: state.history,
          slots: state.slots,
        });
      }
      message += 1;
    }
    state = applyEvent(state, event);
  });
  return candidates;
}

function wantsRephrasing(event: BotEvent, rephraseAll: boolean): boolean {
  const flag = event.metadata?.rephrase;
  return typeof flag === 'boolean' ? flag : rephraseAll;
}

function promptFor(setup: RephraseSetup, event: BotEvent): nunjucks.Template {
  const own = event.metadata?.rephrase_prompt;
  return (typeof own === 'string' && setup.responsePrompts.get(own)) || setup.prompt;
}

/** Response name and text of each rephrased bot event. */
function rephrasedTexts(events: readonly DialogueEvent[]): Set<string> {
  const texts = new Set<string>();
  for (const event of events) {
    const response = event.event === 'bot' ? event.metadata?.utter_action : undefined;
    if (event.event === 'bot' && typeof response === 'string' && event.text !== undefined) {
      if (event.metadata?.[REPHRASED_FROM] !== undefined) texts.add(key(response, event.text));
    }
  }
  return texts;
}

function key(response: string, text: string): string {
  return `${response}\0${text}`;
}
