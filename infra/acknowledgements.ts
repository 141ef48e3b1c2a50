import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * The AWS Solutions findings Switchboard accepts by design, each with its reason. Every one is
 * acknowledged on the narrowest construct that raises it.
 */

/** X-Ray's write actions have no resource-level permissions. */
export function acknowledgeTracingWildcard(role: IConstruct): void {
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions; every other statement of this role names its table, queue, log group or secret.',
  });
}

/** How the messaging channels' webhook routes are checked. */
const CHANNEL_ROUTES =
  "The messaging channels' webhooks check each request in the webhook function before anything is written: Slack's signing-secret HMAC with a 5-minute window, Telegram's secret-token header, Twilio's X-Twilio-Signature, each kept in Secrets Manager; the callback channel takes the REST token.";

/** The HTTP routes authenticate in the function, as Rasa's REST channel does. */
export function acknowledgeRouteAuthorization(api: IConstruct, authenticated: boolean): void {
  Validations.of(api).acknowledge({
    id: 'AwsSolutions-APIG4',
    reason: authenticated
      ? "GET /health is public for load balancers and uptime checks, and GET /version (the running version, as Rasa serves it) for clients; the REST channel and the tracker require the token kept in Secrets Manager (a bearer token, or Rasa's ?token= query parameter), compared in the webhook function in constant time (the Rasa REST channel contract, which API Gateway authorizers cannot express without a second function). POST /a2a/push/{sender}/{run} is checked in its function against the per-run token the agent was given. ${CHANNEL_ROUTES}"
      : `The operator deployed with the context authenticate=false, documented as only for deployments behind their own authenticating gateway: the REST channel and the tracker (which shows any conversation to whoever knows its sender id) are then public at the API. POST /a2a/push/{sender}/{run} still checks the per-run token the agent was given. ${CHANNEL_ROUTES}`,
  });
}

/** The runtime is pinned, not floating to the newest Node.js. */
export function acknowledgeRuntimePin(fn: IConstruct): void {
  Validations.of(fn).acknowledge({
    id: 'AwsSolutions-L1',
    reason:
      'Pinned to nodejs22.x on purpose: the bundle targets node22 and the pinned dependencies (DESIGN §6) are tested there; moving to a newer runtime is a reviewed pin change, not an automatic one.',
  });
}

/**
 * Per-conversation secrets (`conversation_secret` of an MCP server) have one name per sender id:
 * the worker may read every secret under the pattern's fixed part, and no others.
 */
export function acknowledgeConversationSecrets(
  role: IConstruct,
  resources: readonly string[],
): void {
  for (const resource of resources) {
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${resource}]`,
      reason:
        'The conversation_secret of an MCP server names one secret per conversation (its sender id in the name), so the worker reads secrets by a name pattern; the pattern keeps the deployment prefix and the fixed part of the configured secret_id.',
    });
  }
}

/** The push key is not rotated: running tasks hold tokens derived from it. */
export function acknowledgePushKeyRotation(secret: IConstruct): void {
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'The A2A push key never leaves AWS: agents get only per-run HMAC tokens derived from it, which they keep for as long as their tasks run; rotating it would make the notifications of every running task fail. To replace it, put a new value while no A2A task runs.',
  });
}

/**
 * The A2A server's REST API: callers are checked in its function (the protocol's own schemes),
 * its bodies by the SDK's JSON-RPC handler, and its requests are throttled and access-logged.
 */
export function acknowledgeA2AServerApi(api: IConstruct): void {
  const acknowledge = (id: string, reason: string) =>
    Validations.of(api).acknowledge({ id, reason });
  acknowledge(
    'AwsSolutions-APIG2',
    "The JSON-RPC bodies are checked by the A2A SDK's transport handler in the function, which answers the protocol's own errors; a request validator would answer API Gateway's 400 instead, which A2A clients do not understand.",
  );
  acknowledge(
    'AwsSolutions-APIG3',
    'No WAF web ACL is attached by default: the stage throttles every route, the function checks every caller of /a2a, and a web ACL is an account-level choice the operator can associate with the stage.',
  );
  acknowledge(
    'AwsSolutions-APIG4',
    'GET /.well-known/agent-card.json is public as A2A discovery requires; POST /a2a checks its callers in the function with the schemes the card advertises (an API key, a JWT verified against the configured issuer, audience and JWKS or secret, or else the REST token), which API Gateway authorizers cannot express without a second function.',
  );
  acknowledge(
    'AwsSolutions-APIG6',
    'Execution logging needs an account-wide CloudWatch role that this stack does not create; the stage writes JSON access logs, and the function logs every failed request as JSON with its request id.',
  );
  acknowledge(
    'AwsSolutions-COG4',
    "A2A callers are other orchestrators, authenticated with the agent card's schemes (API key or JWT bearer from any issuer the operator configures), not Cognito users.",
  );
}

/**
 * The web chat's REST API: one streaming `GET` whose caller the function checks with the REST
 * token, as the HTTP API's routes are; throttled and access-logged.
 */
export function acknowledgeWebChatApi(api: IConstruct, tokenConfigured: boolean): void {
  const acknowledge = (id: string, reason: string) =>
    Validations.of(api).acknowledge({ id, reason });
  acknowledge(
    'AwsSolutions-APIG2',
    'The one route is a GET with no body; the function checks its sender id and its Last-Event-ID and answers 400 with the reason.',
  );
  acknowledge(
    'AwsSolutions-APIG3',
    'No WAF web ACL is attached by default: the stage throttles the route, and a web ACL is an account-level choice the operator can associate with the stage.',
  );
  acknowledge(
    'AwsSolutions-APIG4',
    tokenConfigured
      ? "The function checks the REST token (bearer or token query parameter, as an EventSource cannot send headers), as the HTTP API's routes do; an API Gateway authorizer would need a second function."
      : 'This deployment has no REST token (restToken=false): the web chat is as open as the REST channel, as the operator chose.',
  );
  acknowledge(
    'AwsSolutions-APIG6',
    'Execution logging needs an account-wide CloudWatch role that this stack does not create; the stage writes JSON access logs, and the function logs every failed request as JSON with its request id.',
  );
  acknowledge(
    'AwsSolutions-COG4',
    "The web chat's users are the assistant's users, as on the REST channel: no Cognito user pool is assumed.",
  );
}
