import type { SessionConfig } from './schemas/domain.js';

/** How conversation sessions behave, Rasa's defaults filled in. */
export interface SessionSettings {
  /** Minutes without a user message after which the next one starts a new session; 0: never. */
  readonly expirationMinutes: number;
  /** Whether the slots keep their values into a new session. */
  readonly carryOverSlots: boolean;
}

/** Rasa's defaults: a session expires after an hour without a user message; slots carry over. */
export const DEFAULT_SESSION: SessionSettings = { expirationMinutes: 60, carryOverSlots: true };

/** The settings a domain's `session_config` gives, Rasa's defaults for what it leaves out. */
export function sessionSettings(config: SessionConfig | undefined): SessionSettings {
  return {
    expirationMinutes:
      config?.start_session_after_expiry === false
        ? 0
        : (config?.session_expiration_time ?? DEFAULT_SESSION.expirationMinutes),
    carryOverSlots: config?.carry_over_slots_to_new_session ?? DEFAULT_SESSION.carryOverSlots,
  };
}
