import type { Diagnostic } from './diagnostics.js';
import { formatKeyPath, type KeyPath } from './keyPath.js';
import { matchesAny, type PathPattern } from './pathPattern.js';
import type { YamlSource } from './yamlSource.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** The environment a project is loaded against; the real environment wins over `.env`. */
export type Environment = Readonly<Record<string, string | undefined>>;

export interface InterpolationOptions {
  readonly env: Environment;
  /** Keys holding credentials: must be a whole `${VAR}` reference and are kept as a reference. */
  readonly secretPaths: readonly PathPattern[];
  /** Whether a secret's variable must be set now (false when a secret store resolves it later). */
  readonly requireSecretValues: boolean;
  /** Parts left as they are: blocks that are not read (a channel Switchboard does not serve). */
  readonly skip?: (path: KeyPath) => boolean;
}

/**
 * Replaces `${VAR}` in every string with the environment's value. Credential keys become
 * `{ secret: 'VAR' }` so their values never enter the loaded assistant. `unresolved` lists the
 * values that still hold a reference, so that they are not reported a second time.
 */
export function interpolate(
  source: YamlSource,
  options: InterpolationOptions,
): { data: unknown; errors: Diagnostic[]; unresolved: KeyPath[] } {
  const errors: Diagnostic[] = [];
  const unresolved: KeyPath[] = [];

  const visit = (value: unknown, path: KeyPath): unknown => {
    if (options.skip?.(path)) return value;
    if (matchesAny(path, options.secretPaths) && value !== undefined && value !== null) {
      return secretReference(value, path);
    }
    if (typeof value === 'string') return substitute(value, path);
    if (Array.isArray(value)) return value.map((item, i) => visit(item, [...path, i]));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, visit(v, [...path, k])] as const),
      );
    }
    return value;
  };

  const substitute = (text: string, path: KeyPath): string =>
    text.replace(REFERENCE, (whole, name: string) => {
      const found = options.env[name];
      if (found === undefined) {
        unresolved.push(path);
        errors.push(
          source.diagnostic(
            path,
            `${formatKeyPath(path)} uses environment variable ${name}, which is not set (set it in the environment or in the project's .env file)`,
          ),
        );
        return whole;
      }
      return found;
    });

  const secretReference = (value: unknown, path: KeyPath): { secret: string } => {
    const match = typeof value === 'string' ? WHOLE_REFERENCE.exec(value) : null;
    const name = match?.[1];
    if (!name) {
      errors.push(
        source.diagnostic(
          path,
          `${formatKeyPath(path)} must be an environment variable reference such as "\${MY_SECRET}", so the secret is never written in the file`,
        ),
      );
      return { secret: '' };
    }
    if (options.requireSecretValues && options.env[name] === undefined) {
      errors.push(
        source.diagnostic(
          path,
          `${formatKeyPath(path)} uses environment variable ${name}, which is not set (set it in the environment or in the project's .env file)`,
        ),
      );
    }
    return { secret: name };
  };

  return { data: visit(source.data, []), errors, unresolved };
}
