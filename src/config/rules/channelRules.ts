import type { LoadContext } from '../loadContext.js';
import type { ProjectFiles } from '../projectFiles.js';

/**
 * Checks of credentials.yml beyond its schema: every channel verifies that requests come from
 * its platform, so Telegram (whose Rasa block has no secret) needs the webhook's secret token.
 */
export function checkChannels(ctx: LoadContext, files: ProjectFiles): void {
  const credentials = files.credentials;
  const telegram = credentials?.value.telegram;
  if (credentials && telegram && telegram.secret_token === undefined) {
    ctx.error(
      credentials.source,
      ['telegram'],
      'telegram needs secret_token: Switchboard refuses requests that do not carry it in X-Telegram-Bot-Api-Secret-Token; set it to a ${VAR} reference and give the same value to setWebhook as secret_token',
      'key',
    );
  }
}
