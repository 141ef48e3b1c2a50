/**
 * What an agent says while it works reaches the user once each, in order: a status message of a
 * stream or a push as it comes, and the agent's messages a task's history holds after the run's
 * own message (what a poll or a resubscription finds, including what was said while no step was
 * reading).
 */
import { type Message, Role, type Task, type TaskState } from '@a2a-js/sdk';
import type { BotMessage } from '../dialogue/index.js';
import { phaseOf, stateName, textOf } from './messages.js';
import type { A2ARunData } from './runData.js';

/** Status messages remembered as shown, so a repeated update or poll shows none twice. */
const SHOWN_KEPT = 50;

/** Messages to show, and the run remembering them as shown. */
export interface Said {
  readonly run: A2ARunData;
  readonly messages: BotMessage[];
}

/** A status message not shown yet, as a bot message (and the run remembering it). */
export function statusMessage(
  data: A2ARunData,
  message: Pick<Message, 'messageId' | 'parts'> | undefined,
): Said {
  const text = textOf(message?.parts);
  if (!message || !text) return { run: data, messages: [] };
  const key = keyOf(message);
  if (data.shown.includes(key)) return { run: data, messages: [] };
  return {
    run: { ...data, shown: [...data.shown, key].slice(-SHOWN_KEPT) },
    messages: [{ text, metadata: { intermediate: true, agent_id: data.agentId } }],
  };
}

/**
 * What a task shows that the user has not seen: the agent's messages in its history after the
 * run's message and after the newest one already shown (the history keeps them in the order they
 * were said), and its status message while it works. The status message of a task that has
 * answered (`answered`) is the answer itself, not progress.
 */
export function taskProgress(data: A2ARunData, task: Task, answered: boolean): Said {
  const history = task.history ?? [];
  const current = task.status?.message;
  let from = history.findIndex((m) => m.messageId === data.messageId);
  const candidates: Message[] = [];
  if (from >= 0) {
    history.forEach((m, i) => {
      if (i > from && data.shown.includes(keyOf(m))) from = i;
    });
    candidates.push(...history.slice(from + 1).filter((m) => m.role === Role.ROLE_AGENT));
  }
  if (current && phaseOf(task.status?.state) === 'working') {
    if (!candidates.some((m) => keyOf(m) === keyOf(current))) candidates.push(current);
  }
  let run = data;
  const messages: BotMessage[] = [];
  for (const message of candidates) {
    if (answered && current && keyOf(message) === keyOf(current)) continue;
    const said = statusMessage(run, message);
    run = said.run;
    messages.push(...said.messages);
  }
  return { run, messages };
}

function keyOf(message: Pick<Message, 'messageId' | 'parts'>): string {
  return message.messageId || textOf(message.parts);
}

/** Task states a run keeps: the newest, when a task goes back and forth. */
const STATES_KEPT = 20;

/** The run having seen the task in `state` at `at`, when that is a change. */
export function sawState(data: A2ARunData, state: TaskState | undefined, at: number): A2ARunData {
  if (state === undefined) return data;
  const name = stateName(state);
  const states = data.states ?? [];
  if (states.at(-1)?.state === name) return data;
  return { ...data, states: [...states, { state: name, at }].slice(-STATES_KEPT) };
}
