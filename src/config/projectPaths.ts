import path from 'node:path';

/**
 * Where a project keeps its files when not in Rasa's default places, as Rasa's `--config`,
 * `--endpoints`, `--credentials`, `--domain` and `--data` options name them; relative paths are taken from the
 * project directory.
 */
export interface ProjectPaths {
  /** The assistant's configuration (default `config.yml`). */
  readonly config?: string;
  /** The endpoints (default `endpoints.yml`). */
  readonly endpoints?: string;
  /** The messaging channels (default `credentials.yml`). */
  readonly credentials?: string;
  /** A domain file, or a folder of domain files (default `domain.yml` or `domain/`). */
  readonly domain?: string;
  /** Files or folders of flows (default `data/`). */
  readonly data?: readonly string[];
}

/** The options that name them, as Rasa's command line spells them. */
export interface ProjectPathOptions {
  readonly config?: string | undefined;
  readonly endpoints?: string | undefined;
  readonly credentials?: string | undefined;
  readonly domain?: string | undefined;
  readonly data?: readonly string[] | undefined;
}

/** The paths the options name, resolved against `base` (the project directory). */
export function resolveProjectPaths(base: string, options: ProjectPathOptions): ProjectPaths {
  const paths: { -readonly [K in keyof ProjectPaths]: ProjectPaths[K] } = {};
  for (const key of ['config', 'endpoints', 'credentials', 'domain'] as const) {
    const value = options[key];
    if (value !== undefined) paths[key] = path.resolve(base, value);
  }
  if (options.data !== undefined && options.data.length > 0) {
    paths.data = options.data.map((d) => path.resolve(base, d));
  }
  return paths;
}
