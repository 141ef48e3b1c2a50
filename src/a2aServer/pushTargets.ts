/**
 * Push notification configs of a task, kept in its item: created (also with a `SendMessage`),
 * read, listed and deleted. Their token and credentials are sealed; a new config gets the
 * updates recorded after it, not the earlier ones.
 */
import { randomUUID } from 'node:crypto';
import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import {
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotFoundError,
} from '@a2a-js/sdk/errors';
import { inwardHostReason } from './pushAddress.js';
import { PUSH_TARGET_LIMIT, type PushTarget, type TaskRecord } from './record.js';
import { seal, unseal } from './seal.js';

export interface PushTargetDeps {
  /** `a2a_server.push_notifications`. */
  readonly pushEnabled: boolean;
  /** The key push credentials are sealed with; without one, no configs are taken. */
  readonly pushKey?: () => Promise<string>;
  /** Whether targets in the server's own network are taken (the local stack); see pushAddress. */
  readonly pushToOwnNetwork?: boolean;
}

/** The target a config asks for, its credentials sealed; it gets updates after `delivered`. */
export async function pushTargetOf(
  deps: PushTargetDeps,
  config: TaskPushNotificationConfig,
  protocol: PushTarget['protocol'],
  delivered: number,
): Promise<PushTarget> {
  if (!deps.pushEnabled || !deps.pushKey) {
    throw new PushNotificationNotSupportedError('this agent sends no push notifications');
  }
  checkPushConfig(config);
  const inward = deps.pushToOwnNetwork ? undefined : inwardHostReason(new URL(config.url));
  if (inward !== undefined) {
    throw new RequestMalformedError(
      `the push notification url is refused: ${inward}, which this agent does not send to`,
    );
  }
  const secrets = {
    ...(config.token ? { token: config.token } : {}),
    ...(config.authentication?.credentials
      ? { credentials: config.authentication.credentials }
      : {}),
  };
  const scheme = config.authentication?.scheme;
  return {
    id: config.id || randomUUID(),
    url: config.url,
    ...(Object.keys(secrets).length > 0 ? { sealed: seal(await deps.pushKey(), secrets) } : {}),
    ...(scheme ? { scheme } : {}),
    delivered,
    protocol,
  };
}

/** Longest push URL, token, scheme or credentials taken. */
const PUSH_VALUE_LIMIT = 2_048;
/** An HTTP auth scheme: an RFC 9110 token. */
const SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value that every HTTP client sends as it is: visible ASCII and spaces. */
const HEADER_VALUE = /^[\x20-\x7e]*$/;

/**
 * Refuses what could never be sent: a URL that is not http(s), carries a user name or password,
 * or is overlong; a token, scheme or credentials that no header can carry.
 */
function checkPushConfig(config: TaskPushNotificationConfig): void {
  const refuse = (why: string) => {
    throw new RequestMalformedError(`the push notification ${why}`);
  };
  if (!/^https?:\/\//i.test(config.url) || !URL.canParse(config.url)) {
    refuse('url must be an http(s) URL');
  }
  const url = new URL(config.url);
  if (url.username !== '' || url.password !== '') {
    refuse('url must not carry a user name or password: send them as authentication');
  }
  const values = {
    url: config.url,
    token: config.token,
    'authentication scheme': config.authentication?.scheme ?? '',
    'authentication credentials': config.authentication?.credentials ?? '',
  };
  for (const [name, value] of Object.entries(values)) {
    if (value.length > PUSH_VALUE_LIMIT)
      refuse(`${name} is longer than ${PUSH_VALUE_LIMIT} characters`);
    if (!HEADER_VALUE.test(value))
      refuse(`${name} may hold only visible ASCII characters and spaces`);
  }
  const scheme = values['authentication scheme'];
  if (scheme !== '' && !SCHEME.test(scheme)) {
    refuse('authentication scheme must be one word, such as Bearer or Basic');
  }
}

/** The task with the target added, or replacing the one of its id. */
export function withTarget(record: TaskRecord, target: PushTarget): TaskRecord {
  const others = record.push.filter((t) => t.id !== target.id);
  if (others.length >= PUSH_TARGET_LIMIT) {
    throw new RequestMalformedError(
      `a task takes at most ${PUSH_TARGET_LIMIT} push notification configs`,
    );
  }
  return { ...record, version: record.version + 1, push: [...others, target] };
}

export function withoutTarget(record: TaskRecord, id: string): TaskRecord | undefined {
  if (!record.push.some((t) => t.id === id)) return undefined;
  return { ...record, version: record.version + 1, push: record.push.filter((t) => t.id !== id) };
}

/** A target as the protocol shows it, its credentials opened. */
export async function configOf(
  deps: PushTargetDeps,
  record: TaskRecord,
  target: PushTarget,
): Promise<TaskPushNotificationConfig> {
  const secrets = target.sealed && deps.pushKey ? unseal(await deps.pushKey(), target.sealed) : {};
  return {
    tenant: '',
    id: target.id,
    taskId: record.id,
    url: target.url,
    token: secrets.token ?? '',
    authentication:
      target.scheme || secrets.credentials
        ? { scheme: target.scheme ?? '', credentials: secrets.credentials ?? '' }
        : undefined,
  };
}

export function targetOf(record: TaskRecord, id: string): PushTarget {
  const target = record.push.find((t) => t.id === id);
  if (!target) {
    throw new TaskNotFoundError(`task ${record.id} has no push notification config ${id}`);
  }
  return target;
}
