import type { DialogueEvent, UnstampedEvent } from './events.js';
import type { Frame } from './frames.js';
import type { BotMessage } from './responses/botMessage.js';
import { applyEvent, type ConversationState } from './state.js';

/**
 * The work of one turn: the state as it evolves, the events it wrote and the messages for the
 * user. Stack changes are collected and written as one `stack` event before the next event.
 */
export class Turn {
  private current: ConversationState;
  private workingStack: Frame[];
  private stackChanged = false;
  /** The highest frame number handed out in this turn. */
  private reservedSeq = 0;
  /** Tool calls made so far in this turn. */
  private toolCalls = 0;
  readonly events: DialogueEvent[] = [];
  readonly messages: BotMessage[] = [];

  constructor(
    state: ConversationState,
    private readonly now: () => number,
    /** The user message this turn answers, if any. */
    readonly userMessage: string | undefined,
    /** What the channel sent along with the message. */
    readonly userMetadata?: Readonly<Record<string, unknown>>,
  ) {
    this.current = state;
    this.workingStack = [...state.stack];
  }

  /** The state with every change so far, pending stack changes written first. */
  snapshot(): ConversationState {
    this.flushStack();
    return this.current;
  }

  get slots(): Readonly<Record<string, unknown>> {
    return this.current.slots;
  }

  get senderId(): string {
    return this.current.sender_id;
  }

  get stack(): readonly Frame[] {
    return this.workingStack;
  }

  top(): Frame | undefined {
    return this.workingStack[this.workingStack.length - 1];
  }

  /** The number of this turn's next tool call: 0, 1, 2, … in the order the turn makes them. */
  nextToolCall(): number {
    return this.toolCalls++;
  }

  /** A new frame id, unique within the conversation. */
  newFrameId(): string {
    // Every frame on the stack is either in the state (numbered up to frame_seq) or new here.
    const seq = Math.max(this.current.frame_seq, this.reservedSeq) + 1;
    this.reservedSeq = seq;
    return `f${seq}`;
  }

  push(frame: Frame): void {
    this.workingStack.push(frame);
    this.stackChanged = true;
  }

  /** Replaces the frame with the same id. */
  update(frame: Frame): void {
    const i = this.workingStack.findIndex((f) => f.frame_id === frame.frame_id);
    if (i < 0) throw new Error(`frame ${frame.frame_id} is not on the stack`);
    this.workingStack[i] = frame;
    this.stackChanged = true;
  }

  remove(frameId: string): void {
    this.workingStack = this.workingStack.filter((f) => f.frame_id !== frameId);
    this.stackChanged = true;
  }

  /** Moves a frame to the top of the stack. */
  raise(frameId: string): void {
    const frame = this.workingStack.find((f) => f.frame_id === frameId);
    if (!frame) return;
    this.workingStack = [...this.workingStack.filter((f) => f.frame_id !== frameId), frame];
    this.stackChanged = true;
  }

  emit(event: UnstampedEvent): void {
    this.flushStack();
    this.record({ ...event, timestamp: this.timestamp() } as DialogueEvent);
  }

  setSlot(name: string, value: unknown): void {
    if (Object.is(this.current.slots[name], value)) return;
    this.emit({ event: 'slot', name, value });
  }

  say(message: BotMessage): void {
    const { response, ...rest } = message;
    const metadata = response ? { ...message.metadata, utter_action: response } : message.metadata;
    this.emit({
      event: 'bot',
      ...(rest.text !== undefined ? { text: rest.text } : {}),
      ...(rest.buttons ? { buttons: rest.buttons } : {}),
      ...(rest.custom !== undefined ? { custom: rest.custom } : {}),
      ...(rest.image !== undefined ? { image: rest.image } : {}),
      ...(metadata ? { metadata } : {}),
    });
    this.messages.push(message);
  }

  /** Writes pending stack changes as a `stack` event. */
  flushStack(): void {
    if (!this.stackChanged) return;
    this.stackChanged = false;
    this.record({ event: 'stack', stack: [...this.workingStack], timestamp: this.timestamp() });
  }

  private record(event: DialogueEvent): void {
    this.current = applyEvent(this.current, event);
    this.events.push(event);
  }

  private timestamp(): number {
    return this.now() / 1000;
  }
}
