/** An engine fault: a flow loops, or names something that does not exist. */
export class DialogueExecutionError extends Error {
  override readonly name = 'DialogueExecutionError';
}
