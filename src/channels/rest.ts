import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import type { BotMessage } from '../dialogue/index.js';
import {
  type Channel,
  type ChannelContext,
  HttpError,
  type HttpResponse,
  headerOf,
  type Job,
  MAX_BODY_BYTES,
  type OutboundMessage,
  type RouteRequest,
  requireContentType,
  SENDER_ID_CHARS,
  senderIdProblem,
} from '../runtime/index.js';

/** The channel's name, as jobs and conversations carry it. */
export const REST_CHANNEL = 'rest';

/** Limits of the REST channel: larger requests are refused before anything is written. */
export const REST_LIMITS = {
  /** The HTTP API's one body limit. */
  bodyBytes: MAX_BODY_BYTES,
  messageChars: 4000,
  senderChars: SENDER_ID_CHARS,
  metadataBytes: 8 * 1024,
  /** Objects and arrays nested in the body, the body itself counting as one. */
  jsonDepth: 32,
} as const;

/** The body of `POST /webhooks/rest/webhook`, as Rasa's REST channel takes it. */
export const RestWebhookBody = z.lazy(() =>
  z.strictObject({
    sender: z.string().check(z.trim(), (ctx) => {
      const problem = senderIdProblem(ctx.value);
      if (problem !== undefined) {
        ctx.issues.push({ code: 'custom', message: `sender ${problem}`, input: ctx.value });
      }
    }),
    message: z.string().check(
      z.maxLength(REST_LIMITS.messageChars, {
        error: `message must be at most ${REST_LIMITS.messageChars} characters`,
      }),
    ),
    metadata: z.optional(
      z.record(z.string(), z.unknown()).check(
        z.refine((m) => Buffer.byteLength(JSON.stringify(m)) <= REST_LIMITS.metadataBytes, {
          error: `metadata must be at most ${REST_LIMITS.metadataBytes} bytes as JSON`,
        }),
      ),
    ),
  }),
);
export type RestWebhookBody = z.infer<typeof RestWebhookBody>;

/** Parses and checks a webhook request body; throws an `HttpError` with the reason. */
export function parseRestWebhook(
  body: string | undefined,
  contentType: string | undefined,
): RestWebhookBody {
  requireContentType(contentType);
  if (body === undefined || body.length === 0) throw new HttpError(400, 'the body is empty');
  if (Buffer.byteLength(body) > REST_LIMITS.bodyBytes) {
    throw new HttpError(413, `the body is larger than ${REST_LIMITS.bodyBytes} bytes`);
  }
  if (nestedDeeperThan(body, REST_LIMITS.jsonDepth)) {
    throw new HttpError(400, `the body is nested deeper than ${REST_LIMITS.jsonDepth} levels`);
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new HttpError(400, 'the body is not valid JSON');
  }
  const parsed = RestWebhookBody.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    let message = `${where}${issue?.message ?? 'invalid body'}`;
    if (issue?.code === 'unrecognized_keys') {
      message = `unknown field(s): ${issue.keys.join(', ')}; the body has sender, message and optional metadata`;
    } else if (issue?.code === 'invalid_type' && issue.path.length === 1) {
      const field = String(issue.path[0]);
      const given = typeof json === 'object' && json !== null && field in json;
      const expected = issue.expected === 'record' ? 'an object' : `a ${issue.expected}`;
      message = given
        ? `${field} must be ${expected}`
        : `${field} is required and must be ${expected}`;
    }
    throw new HttpError(400, message);
  }
  return parsed.data;
}

/**
 * Whether JSON text nests objects and arrays deeper than `limit`: a scan of the text, so that
 * neither parsing nor the checks after it recurse into a hostile depth.
 */
function nestedDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      depth++;
      if (depth > limit) return true;
    } else if (c === '}' || c === ']') depth--;
  }
  return false;
}

/**
 * The job a webhook message becomes, on `channel` (the REST channel's, or another that takes the
 * same body). The message id, when the caller sends one, makes retries safe: the same sender and
 * id always give the same job id (a hash, so it stays short).
 */
export function restMessageJob(
  body: RestWebhookBody,
  newId: () => string,
  channel: string = REST_CHANNEL,
): Job {
  const given = body.metadata?.message_id;
  const id =
    typeof given === 'string' && given.length > 0
      ? `rest-${createHash('sha256').update(`${body.sender}\n${given}`).digest('hex').slice(0, 40)}`
      : newId();
  return {
    type: 'user_message',
    id,
    conversation_id: body.sender,
    turn_id: id,
    text: body.message,
    ...(body.metadata ? { metadata: body.metadata } : {}),
    channel,
  };
}

/** A bot message as Rasa's REST channel answers it. */
export interface RestReply {
  readonly recipient_id: string;
  readonly text?: string;
  readonly buttons?: { title: string; payload: string }[];
  readonly image?: string;
  readonly custom?: unknown;
}

export function toRestReply(message: OutboundMessage): RestReply {
  const m: BotMessage = message.message;
  return {
    recipient_id: message.recipient_id,
    ...(m.text !== undefined ? { text: m.text } : {}),
    ...(m.buttons ? { buttons: m.buttons } : {}),
    ...(m.image !== undefined ? { image: m.image } : {}),
    ...(m.custom !== undefined ? { custom: m.custom } : {}),
  };
}

/**
 * Rasa's REST channel: `POST /webhooks/rest/webhook` queues the message as a job and answers
 * with the turn's replies once the turn settles, or with what it has after a bounded wait.
 * Replies wait in the reply store for the request (or a later one) to read them.
 */
export function restChannel(context: ChannelContext): Channel {
  return {
    name: REST_CHANNEL,
    streams: false,
    output: context.replies,
    routes: [
      {
        method: 'POST',
        path: '/webhooks/rest/webhook',
        authenticated: true,
        handle: (request) => receive(request, context),
      },
    ],
  };
}

async function receive(request: RouteRequest, context: ChannelContext): Promise<HttpResponse> {
  const body = parseRestWebhook(request.body, headerOf(request, 'content-type'));
  const job = restMessageJob(body, context.newId);
  await context.queue.enqueue([job]);
  const deadline = context.now() + context.replyWaitMs;
  let wait = 20;
  for (;;) {
    const replies = await context.replies.read(job.conversation_id, job.turn_id);
    if (replies.settled || context.now() >= deadline || context.stopping?.aborted) {
      return { status: 200, body: replies.messages.map(toRestReply) };
    }
    await context.sleep(Math.min(wait, Math.max(0, deadline - context.now())));
    wait = Math.min(wait * 2, 250);
  }
}
