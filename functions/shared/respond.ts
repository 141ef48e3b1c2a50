import { SecretNotFoundError } from '../../src/adapters/secretErrors.js';
import { describeError } from '../../src/resilience/index.js';
import {
  BlankSecretError,
  BlankTokenError,
  type HttpApi,
  type HttpRequest,
  type HttpResponse,
} from '../../src/runtime/index.js';
import { logger } from './observability.js';

/** What a function says when a secret it needs is missing or blank. */
export interface SecretFaults {
  /** The 503's reason: which part is not configured. */
  readonly notConfigured: string;
  readonly missing: string;
  readonly blank: string;
  /** The secret a blank value is read from, for the log. */
  readonly blankSecret?: string;
}

/**
 * Answers with the HTTP API; a missing or blank secret is a 503 (logged with what to do), and
 * any other failure a 500 that names nothing of ours (logged).
 */
export function responder(
  http: HttpApi,
  faults: SecretFaults,
): (request: HttpRequest) => Promise<HttpResponse> {
  const notConfigured: HttpResponse = { status: 503, body: { error: faults.notConfigured } };
  return async (request) => {
    try {
      return await http.handle(request);
    } catch (error) {
      if (error instanceof SecretNotFoundError) {
        logger.error(faults.missing, { secret: error.secret });
        return notConfigured;
      }
      if (error instanceof BlankSecretError) {
        logger.error('a secret the channel checks requests with is blank: put a value in it', {
          secret: error.secret,
        });
        return { status: 503, body: { error: 'the channel is not configured' } };
      }
      if (error instanceof BlankTokenError) {
        logger.error(faults.blank, faults.blankSecret ? { secret: faults.blankSecret } : {});
        return notConfigured;
      }
      logger.error('request failed', { error: describeError(error) });
      return { status: 500, body: { error: 'internal error' } };
    }
  };
}
