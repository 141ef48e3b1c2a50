/** Keeps a ReAct run's data small enough for the record it is stored in. */
import { MAX_RUN_BYTES, OMITTED_RESULT, type ReactRunData } from './runData.js';

/**
 * The run's data, small enough for its record: the oldest tool results are left out first; a run
 * whose record still outgrows the bound (huge answers or slot values) cannot go on.
 */
export function fitRecord(data: ReactRunData): ReactRunData {
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  let size = bytes(data);
  if (size <= MAX_RUN_BYTES) return data;
  const messages = [...data.messages];
  for (let i = 0; i < messages.length && size > MAX_RUN_BYTES; i++) {
    const message = messages[i];
    if (message?.role !== 'tool' || message.content === OMITTED_RESULT) continue;
    size -= bytes(message.content) - bytes(OMITTED_RESULT);
    messages[i] = { ...message, content: OMITTED_RESULT };
  }
  const fitted = { ...data, messages };
  if (bytes(fitted) > MAX_RUN_BYTES) {
    throw new Error(
      `the run's data outgrew ${MAX_RUN_BYTES} bytes even without its earlier tool results (the model's answers or the slots set are too large)`,
    );
  }
  return fitted;
}
