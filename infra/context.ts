import type { Node } from 'constructs';
import { MIN_WEBHOOK_CONCURRENCY } from './webhookThrottle.js';

/** Workers at once by default: 20 turns in flight, a small share of the account's executions. */
export const DEFAULT_WORKER_CONCURRENCY = 20;
/** Webhook executions by default: two REST requests a second held up to the timeout. */
export const DEFAULT_WEBHOOK_CONCURRENCY = 100;
/** The most webhook executions accepted: far above any account's default quota. */
const MAX_WEBHOOK_CONCURRENCY = 10_000;
// SQS's range for an event source's maximum concurrency.
const WORKER_CONCURRENCY_RANGE = [2, 1000] as const;
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** The deployment settings read from CDK context (`-c key=value` or cdk.json), validated. */
export interface DeploySettings {
  /** The most worker executions at once (the maximum concurrency of its SQS event source). */
  readonly workerConcurrency: number;
  /** The most webhook executions at once; the API throttle is sized to it. */
  readonly webhookConcurrency: number;
  /** Reserve `webhookConcurrency` for the webhook (false in accounts whose quota cannot spare it). */
  readonly reserveWebhookConcurrency: boolean;
  /** Who the alarms email, if anyone. */
  readonly alarmEmail?: string;
  /** Trace every function with X-Ray (off by default: the bundles then carry no X-Ray code). */
  readonly tracing: boolean;
}

/** A CDK context value the app cannot deploy with. */
export class InvalidContextError extends Error {
  override readonly name = 'InvalidContextError';

  constructor(
    readonly key: string,
    readonly value: unknown,
    expected: string,
  ) {
    super(`Context ${key} must be ${expected}, got ${JSON.stringify(value)}`);
  }
}

/** Reads and validates the deployment settings; throws `InvalidContextError` on a bad value. */
export function readDeploySettings(node: Node): DeploySettings {
  const alarmEmail = optional(node, 'alarmEmail');
  if (alarmEmail !== undefined && !EMAIL.test(alarmEmail)) {
    throw new InvalidContextError('alarmEmail', alarmEmail, 'one email address');
  }
  return {
    workerConcurrency: integer(
      node,
      'workerConcurrency',
      DEFAULT_WORKER_CONCURRENCY,
      ...WORKER_CONCURRENCY_RANGE,
    ),
    webhookConcurrency: integer(
      node,
      'webhookConcurrency',
      DEFAULT_WEBHOOK_CONCURRENCY,
      MIN_WEBHOOK_CONCURRENCY,
      MAX_WEBHOOK_CONCURRENCY,
    ),
    reserveWebhookConcurrency: flag(node, 'reserveWebhookConcurrency', true),
    tracing: flag(node, 'tracing', false),
    ...(alarmEmail === undefined ? {} : { alarmEmail }),
  };
}

// `-c key=value` gives strings; cdk.json and `new App({ context })` may give numbers and booleans.
function optional(node: Node, key: string): string | undefined {
  const value: unknown = node.tryGetContext(key);
  return value === undefined || value === null ? undefined : String(value);
}

function integer(node: Node, key: string, fallback: number, min: number, max: number): number {
  const text = optional(node, key);
  if (text === undefined) return fallback;
  const value = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new InvalidContextError(key, text, `an integer from ${min} to ${max}`);
  }
  return value;
}

function flag(node: Node, key: string, fallback: boolean): boolean {
  const text = optional(node, key);
  if (text === undefined) return fallback;
  if (text !== 'true' && text !== 'false') {
    throw new InvalidContextError(key, text, 'true or false');
  }
  return text === 'true';
}
