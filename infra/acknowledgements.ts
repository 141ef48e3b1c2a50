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

/** The HTTP routes authenticate in the function, as Rasa's REST channel does. */
export function acknowledgeRouteAuthorization(api: IConstruct, authenticated: boolean): void {
  Validations.of(api).acknowledge({
    id: 'AwsSolutions-APIG4',
    reason: authenticated
      ? "GET /health is public for load balancers and uptime checks, and GET /version (the running version, as Rasa serves it) for clients; the REST channel and the tracker require the token kept in Secrets Manager (a bearer token, or Rasa's ?token= query parameter), compared in the webhook function in constant time (the Rasa REST channel contract, which API Gateway authorizers cannot express without a second function). POST /a2a/push/{sender}/{run} is checked in its function against the per-run token the agent was given."
      : 'The operator deployed with the context authenticate=false, documented as only for deployments behind their own authenticating gateway: the REST channel and the tracker (which shows any conversation to whoever knows its sender id) are then public at the API. POST /a2a/push/{sender}/{run} still checks the per-run token the agent was given.',
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
