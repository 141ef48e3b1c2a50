import type { AgentOutput, Assistant } from '../assistant/index.js';
import { PATTERN } from '../assistant/index.js';
import { applyAgentOutput } from './agentFrames.js';
import {
  CommandGenerationError,
  generateCommands,
  type InputError,
} from './commandGenerator/generate.js';
import { processCommands } from './commandProcessor.js';
import type { Command } from './commands/command.js';
import type { TurnContext } from './context.js';
import { ModelUnavailableError, TurnUnavailableError } from './errors.js';
import type { DialogueEvent } from './events.js';
import { runUntilSettled } from './executor.js';
import {
  cancelFrames,
  FALLBACK_ERROR_TEXT,
  failCurrentActivity,
  startPattern,
} from './frameLifecycle.js';
import { type AgentFrame, type HeldMessage, MAX_HELD_MESSAGES } from './frames.js';
import { buildDialogueModel, type DialogueModel, initialSlots } from './model.js';
import type { DialoguePorts } from './ports.js';
import { rephraseTurn } from './rephrase/rephraseTurn.js';
import type { BotMessage } from './responses/botMessage.js';
import { sessionExpired, startSession } from './session.js';
import { workingAgent, workingFrameOf, workingRunIds } from './stackQueries.js';
import { type ConversationState, initialState } from './state.js';
import { Turn } from './turn.js';
import type { TurnResult } from './turnResult.js';

/** A message from the user. */
export interface UserMessage {
  readonly text: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** What the message asks, when the channel knows it (a cancel): no model is asked. */
  readonly commands?: readonly Command[];
  /**
   * Typed by a user on a public platform: its text is never read as a `/SetSlots(…)`,
   * `/StartFlow(…)` or `/intent` payload, which only the platform's buttons may send.
   */
  readonly typed?: boolean;
}

export interface TurnOptions {
  /** The output channel's name, for channel-specific response variations. */
  readonly channel?: string;
  readonly signal?: AbortSignal;
  /** When calls to models, tools and actions must be over (ms since the epoch). */
  readonly deadline?: number;
  /**
   * When the command generator's model or an MCP server a flow calls fails in a way a later try
   * may not, throw `TurnUnavailableError` (the caller retries the message later and keeps
   * nothing of this try) instead of answering with the internal-error pattern.
   */
  readonly retryUnavailable?: boolean;
  /**
   * Identifies this turn's work across retries of its job (the user message's turn, or the
   * agent job): tool calls derive their idempotency keys from it.
   */
  readonly callKey?: string;
}

/**
 * The dialogue engine: holds a conversation the way a Rasa user expects. Pure: it reads and
 * returns state, and reaches the world (LLM, agents, tools, actions) only through its ports.
 */
export class DialogueEngine {
  readonly model: DialogueModel;

  constructor(assistant: Assistant) {
    this.model = buildDialogueModel(assistant);
  }

  /** A new conversation. */
  start(senderId: string): ConversationState {
    return initialState(senderId, initialSlots(this.model));
  }

  /** Handles one user message: commands, then flows and agents until the assistant waits. */
  async handleMessage(
    state: ConversationState,
    message: UserMessage,
    ports: DialoguePorts,
    options: TurnOptions = {},
  ): Promise<TurnResult> {
    const result = await this.respond(state, message, ports, options, true);
    return rephraseTurn(this.model, state, result, ports, options);
  }

  /**
   * A user message's turn. A message held while an agent worked was logged when it arrived
   * (`log` false): its turn writes no second `user` event. A turn that ends a working agent (the
   * user cancels its flow, or the session expired) answers the messages it held, in order.
   */
  private async respond(
    state: ConversationState,
    message: UserMessage,
    ports: DialoguePorts,
    options: TurnOptions,
    log: boolean,
  ): Promise<TurnResult> {
    const turn = new Turn(state, ports.now, message.text, message.metadata);
    const ctx: TurnContext = { model: this.model, turn, ports, ...options };
    const working = workingAgent(state.stack);
    // A conversation's first message, or a message after the session expired, opens a session,
    // as in Rasa: it starts before the message is read, and pattern_session_start runs before
    // anything the message asks for. A message held while an agent worked came in its session.
    const expired = log && sessionExpired(this.model.session, state, ports.now);
    const opensSession = expired || isNewSession(state);
    if (opensSession) startSession(ctx, expired);
    const current = turn.snapshot();
    const previousBotMessages = botMessagesOf(current.last_bot_events);

    let commands: Command[] = [];
    let generationFailure: string | undefined;
    let inputError: InputError | undefined;
    if (message.commands) {
      commands = [...message.commands];
    } else {
      try {
        ({ commands, inputError } = await generateCommands(
          this.model,
          current,
          message.text,
          ports.llm,
          options.signal,
          options.deadline,
          { payloads: message.typed !== true },
        ));
      } catch (error) {
        if (!(error instanceof CommandGenerationError)) throw error;
        if (options.retryUnavailable && error.transient) {
          throw new ModelUnavailableError(error.message, error.retryAfterMs, { cause: error });
        }
        generationFailure = error.message;
      }
    }
    if (log) {
      turn.emit({
        event: 'user',
        text: message.text,
        ...(message.metadata ? { metadata: { ...message.metadata } } : {}),
        commands,
      });
    }

    if (opensSession && !asksForSession(commands)) {
      startPattern(ctx, PATTERN.sessionStart);
      await this.settle(ctx);
    }
    // A failing model loses nothing: the user is told, and the open question comes again.
    if (generationFailure !== undefined) {
      startPattern(ctx, PATTERN.internalError, { reason: generationFailure });
    } else if (inputError !== undefined) {
      startPattern(ctx, PATTERN.internalError, { ...inputError, reason: inputError.error_type });
    } else {
      processCommands(ctx, commands, previousBotMessages);
    }
    await this.settle(ctx);
    turn.flushStack();
    const result = {
      state: turn.snapshot(),
      events: [...turn.events],
      messages: [...turn.messages],
      commands,
    };
    const held = working?.held ?? [];
    if (held.length > 0 && !stillWorking(result.state, working)) {
      await this.release(result, held, ports, options);
    }
    return result;
  }

  /**
   * Applies what a sub agent's background run reports: intermediate messages and, when the run
   * is over, its output. An update for a run the conversation no longer waits for (its flow was
   * cancelled) changes nothing.
   */
  async handleAgentUpdate(
    state: ConversationState,
    update: AgentUpdate,
    ports: DialoguePorts,
    options: TurnOptions = {},
  ): Promise<TurnResult & { readonly stale: boolean }> {
    const frame = state.stack.find(
      (f): f is AgentFrame =>
        f.type === 'agent' && f.frame_id === update.frameId && f.run_id === update.runId,
    );
    if (frame?.status !== 'working') {
      return { state, events: [], messages: [], commands: [], stale: true };
    }
    const turn = new Turn(state, ports.now, undefined);
    const ctx: TurnContext = { model: this.model, turn, ports, ...options };
    for (const message of update.messages ?? []) turn.say(message);
    if (update.output) {
      applyAgentOutput(ctx, frame, update.output);
      await this.settle(ctx);
    }
    turn.flushStack();
    const result = {
      state: turn.snapshot(),
      events: [...turn.events],
      messages: [...turn.messages],
      commands: [] as Command[],
      stale: false,
    };
    if (update.output) await this.release(result, frame.held ?? [], ports, options);
    return rephraseTurn(this.model, state, result, ports, options);
  }

  /**
   * Handles the messages the user sent while a run worked, in order, now that it reported back:
   * the first is the answer an agent asked for, or a new turn. When one of them sets an agent to
   * work again, the rest wait for that run. They were logged on arrival; a model failure here
   * is answered in the turn, as the agent's step must not run again for it.
   */
  private async release(
    result: {
      state: ConversationState;
      events: DialogueEvent[];
      messages: BotMessage[];
      commands: Command[];
    },
    held: readonly HeldMessage[],
    ports: DialoguePorts,
    options: TurnOptions,
  ): Promise<void> {
    for (const [i, message] of held.entries()) {
      const working = workingAgent(result.state.stack);
      if (working) {
        const turn = new Turn(result.state, ports.now, undefined);
        turn.update({
          ...working,
          held: [...(working.held ?? []), ...held.slice(i)].slice(-MAX_HELD_MESSAGES),
        });
        turn.flushStack();
        result.state = turn.snapshot();
        result.events.push(...turn.events);
        return;
      }
      const next = await this.respond(
        result.state,
        message,
        ports,
        {
          ...options,
          retryUnavailable: false,
          // Each held message is a turn of its own: its tool calls get keys of their own.
          ...(options.callKey !== undefined ? { callKey: `${options.callKey}/held${i}` } : {}),
        },
        false,
      );
      result.state = next.state;
      result.events.push(...next.events);
      result.messages.push(...next.messages);
      result.commands.push(...next.commands);
    }
  }

  /** The agent frame working on a run, if the conversation still waits for that run. */
  runWaiter(state: ConversationState, runId: string): RunWaiter | undefined {
    const frame = workingFrameOf(state.stack, runId);
    return frame ? { frameId: frame.frame_id, agentId: frame.agent_id } : undefined;
  }

  /**
   * The agent frames of `before` that a turn cancelled (removed with `agent_cancelled` among its
   * `events`): what they left running elsewhere is to be cancelled. Finished agents are not among
   * them.
   */
  cancelledAgents(
    before: ConversationState,
    after: ConversationState,
    events: readonly DialogueEvent[],
  ): AgentFrame[] {
    const kept = new Set(after.stack.map((frame) => frame.frame_id));
    const cancelled = events.filter((event) => event.event === 'agent_cancelled');
    return before.stack.filter(
      (frame): frame is AgentFrame =>
        frame.type === 'agent' &&
        !kept.has(frame.frame_id) &&
        cancelled.some((e) => e.agent_id === frame.agent_id && e.flow_id === frame.flow_id),
    );
  }

  /** The runs the conversation waits for: those of agent frames still working. */
  activeRunIds(state: ConversationState): ReadonlySet<string> {
    return workingRunIds(state.stack);
  }

  /** Runs until the assistant waits; a fault ends the current flow with the error pattern. */
  private async settle(ctx: TurnContext): Promise<void> {
    try {
      await runUntilSettled(ctx);
    } catch (error) {
      if (ctx.signal?.aborted || error instanceof TurnUnavailableError) throw error;
      failCurrentActivity(ctx, error instanceof Error ? error.message : String(error));
      try {
        await runUntilSettled(ctx);
      } catch (again) {
        if (ctx.signal?.aborted) throw again;
        // Even the error pattern fails (a broken override): clear the stack and say so plainly.
        cancelFrames(ctx, ctx.turn.stack);
        ctx.turn.say({ text: FALLBACK_ERROR_TEXT });
      }
    }
  }
}

/**
 * Whether this message opens the conversation: no session has started and no message has been
 * exchanged (a test's fixtures may have set slots before it).
 */
function isNewSession(state: ConversationState): boolean {
  return state.session_started !== true && state.history.length === 0;
}

/** Whether the agent frame still works on the same run. */
function stillWorking(state: ConversationState, frame: AgentFrame | undefined): boolean {
  return state.stack.some(
    (f) =>
      f.type === 'agent' &&
      f.frame_id === frame?.frame_id &&
      f.status === 'working' &&
      f.run_id === frame.run_id,
  );
}

/** Whether the message was `/session_start`, which starts the session pattern itself. */
function asksForSession(commands: readonly Command[]): boolean {
  return commands.some((c) => c.command === 'start flow' && c.flow === PATTERN.sessionStart);
}

/** The agent frame that waits for a run's result. */
export interface RunWaiter {
  readonly frameId: string;
  readonly agentId: string;
}

/** What a sub agent's background run reports. */
export interface AgentUpdate {
  readonly frameId: string;
  readonly runId: string;
  /** Intermediate messages for the user. */
  readonly messages?: readonly BotMessage[];
  /** Present when the run is over. */
  readonly output?: AgentOutput;
}

function botMessagesOf(events: readonly DialogueEvent[]): BotMessage[] {
  return events.flatMap((e) => {
    if (e.event !== 'bot') return [];
    const { event: _e, timestamp: _t, metadata, ...message } = e;
    const response = typeof metadata?.utter_action === 'string' ? metadata.utter_action : undefined;
    return [{ ...message, ...(response ? { response } : {}) }];
  });
}
