import { describe, expect, it } from 'vitest';
import { readLimited, rejectionOf } from '../../../src/actionServer/bodies.js';
import { ActionServerError } from '../../../src/actionServer/index.js';

const PLAIN_REFUSAL = 'the action server refused to run it (HTTP 400)';

/** A response whose body arrives in the given chunks, all in memory. */
function streamed(chunks: readonly string[], status = 200): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status });
}

const keep = (text: string) => text;

describe('reading an answer body up to a limit', () => {
  it('reads a body without content as empty text', async () => {
    expect(await readLimited(new Response(null), 10)).toBe('');
    expect(await readLimited(new Response(null, { status: 204 }), 0)).toBe('');
  });

  it('joins the chunks of a body as UTF-8 text', async () => {
    expect(await readLimited(streamed(['{"a":', '"h\u00e9"}']), 100)).toBe('{"a":"h\u00e9"}');
  });

  it('accepts a body of exactly the limit', async () => {
    expect(await readLimited(streamed(['12345', '67890']), 10)).toBe('1234567890');
  });

  it('refuses a body one byte over the limit, counting all chunks', async () => {
    const reading = readLimited(streamed(['12345', '6789', '01']), 10);
    await expect(reading).rejects.toThrow(ActionServerError);
    await expect(readLimited(streamed(['12345', '6789', '01']), 10)).rejects.toThrow(
      'answered with more than 10 bytes',
    );
  });

  it('counts bytes, not characters', async () => {
    await expect(readLimited(streamed(['\u00e9\u00e9\u00e9']), 5)).rejects.toThrow(
      'answered with more than 5 bytes',
    );
  });

  it('stops reading a long body once it is over the limit, cancelling the rest', async () => {
    let cancelled = false;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 100) controller.close();
        else controller.enqueue(new Uint8Array(4));
      },
      cancel() {
        cancelled = true;
      },
    });
    await expect(readLimited(new Response(body), 10)).rejects.toThrow(
      'answered with more than 10 bytes',
    );
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(10);
  });
});

describe('the reason of a refusal', () => {
  it("is the answer's error, redacted", async () => {
    const answer = streamed(
      [JSON.stringify({ error: 'no key s3cret here', action_name: 'a' })],
      400,
    );
    expect(await rejectionOf(answer, 1000, (text) => text.replace('s3cret', '***'))).toBe(
      'no key *** here',
    );
  });

  it('is a plain refusal when the answer has no error to give', async () => {
    for (const body of ['', 'not json', '{}', '{"error":null}', '{"error":""}', '{"error":5}']) {
      expect(await rejectionOf(streamed([body], 400), 1000, keep)).toBe(PLAIN_REFUSAL);
    }
    expect(await rejectionOf(new Response(null, { status: 400 }), 1000, keep)).toBe(PLAIN_REFUSAL);
  });

  it('is a plain refusal when the answer is too long to read', async () => {
    const answer = streamed([JSON.stringify({ error: 'x'.repeat(50) })], 400);
    expect(await rejectionOf(answer, 10, keep)).toBe(PLAIN_REFUSAL);
  });
});
