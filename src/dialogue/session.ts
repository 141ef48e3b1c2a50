import type { SessionSettings } from '../assistant/index.js';
import type { TurnContext } from './context.js';
import { resetAllSlots } from './frameLifecycle.js';
import { type ConversationState, latestMessageTime } from './state.js';

/**
 * Whether a user message now opens a new session, as in Rasa: more than the expiration time
 * has passed since the user's previous message (never when the time is 0, nor before the user
 * first wrote). Reads the clock only when it has to.
 */
export function sessionExpired(
  settings: SessionSettings,
  state: ConversationState,
  now: () => number,
): boolean {
  if (settings.expirationMinutes <= 0) return false;
  const last = latestMessageTime(state);
  return last !== undefined && (now() / 1000 - last) / 60 > settings.expirationMinutes;
}

/**
 * Starts a session, before the message that opens it is read. After an expired one, as Rasa's
 * `session_started` does, nothing of the old session goes on: every frame ends (cancelled, so
 * that what a sub agent left running is cancelled too), and the slots go back to their initial
 * values unless they carry over.
 */
export function startSession(ctx: TurnContext, expired: boolean): void {
  if (expired) {
    for (const frame of [...ctx.turn.stack].reverse()) {
      ctx.turn.remove(frame.frame_id);
      if (frame.type === 'agent') {
        ctx.turn.emit({
          event: 'agent_cancelled',
          agent_id: frame.agent_id,
          flow_id: frame.flow_id,
        });
      } else {
        ctx.turn.emit({ event: 'flow_cancelled', flow_id: frame.flow_id, step_id: frame.step_id });
      }
    }
  }
  ctx.turn.emit({ event: 'session_started' });
  if (expired && !ctx.model.session.carryOverSlots) resetAllSlots(ctx);
}
