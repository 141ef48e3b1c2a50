/**
 * The platforms' request signatures, computed as their documentation describes them (not with
 * Switchboard's code, which the tests check against these).
 */
import { createHmac } from 'node:crypto';

/** Slack's headers of a request signed at `timestamp` (seconds since the epoch) with `secret`. */
export function slackSignatureHeaders(
  body: string,
  timestamp: number,
  secret: string,
): Record<string, string> {
  const signature = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': `v0=${signature}` };
}

/** Twilio's `X-Twilio-Signature` of a form posted to `url`, keyed with the auth token. */
export function twilioSignature(
  token: string,
  url: string,
  params: Record<string, string>,
): string {
  const names = Object.keys(params).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const data = url + names.map((name) => name + params[name]).join('');
  return createHmac('sha1', token).update(data).digest('base64');
}
