import type { BackoffSchedule, Logger } from '../../resilience/index.js';
import { BlankSecretError, type ChannelContext, type SecretStore } from '../../runtime/index.js';

/** The messaging platforms whose APIs the channels call. */
export type PlatformName = 'slack' | 'telegram' | 'twilio';

/** What the messaging channels are built with, beside the channel context and their settings. */
export interface MessagingDeps {
  /** Resolves the settings' `${VAR}` secrets: the environment locally, Secrets Manager on AWS. */
  readonly secrets: SecretStore;
  readonly logger?: Logger;
  readonly fetch?: typeof fetch;
  readonly random?: () => number;
  /** The waits between tries of a reply the platform did not take (1 s doubling to 5 min). */
  readonly backoff?: BackoffSchedule;
  /**
   * Where each platform's API is (`https://slack.com/api`, …), for a deployment that reaches it
   * through a proxy, and for tests against a fake platform on loopback.
   */
  readonly apiRoots?: Partial<Readonly<Record<PlatformName, string>>>;
}

/**
 * A secret requests are checked with (a signing key): a blank one is refused as a configuration
 * fault (`BlankSecretError`), never used as an empty key anyone could sign with.
 */
export async function checkingSecret(secrets: SecretStore, name: string): Promise<string> {
  const value = await secrets.get(name);
  if (value.trim() === '') throw new BlankSecretError(name);
  return value;
}

/** The platforms' public API roots. */
export const API_ROOTS: Readonly<Record<PlatformName, string>> = {
  slack: 'https://slack.com/api',
  telegram: 'https://api.telegram.org',
  twilio: 'https://api.twilio.com',
};

/** The API root of a platform, without a trailing slash. */
export function apiRoot(deps: MessagingDeps, platform: PlatformName): string {
  return (deps.apiRoots?.[platform] ?? API_ROOTS[platform]).replace(/\/+$/, '');
}

/** What every messaging channel's output is built with, from its context and deps. */
export function outputDeps(context: ChannelContext, deps: MessagingDeps) {
  return {
    queue: context.queue,
    now: context.now,
    replies: context.replies,
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.backoff ? { backoff: deps.backoff } : {}),
  };
}

/**
 * The platforms' API roots the environment names (`SWITCHBOARD_SLACK_API_URL`,
 * `SWITCHBOARD_TELEGRAM_API_URL`, `SWITCHBOARD_TWILIO_API_URL`): a proxy, or a fake platform on
 * loopback to try a channel without an account.
 */
export function platformApiRoots(
  env: Readonly<Record<string, string | undefined>>,
): Partial<Record<PlatformName, string>> {
  const roots: Partial<Record<PlatformName, string>> = {};
  for (const platform of Object.keys(API_ROOTS) as PlatformName[]) {
    const url = env[`SWITCHBOARD_${platform.toUpperCase()}_API_URL`];
    if (url) roots[platform] = url;
  }
  return roots;
}
