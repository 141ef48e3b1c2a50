import nunjucks from 'nunjucks';

let shared: nunjucks.Environment | undefined;

/**
 * The template environment for prompts: Jinja2-compatible, never HTML-escaping, with the tests
 * and filters Rasa prompt templates use that nunjucks lacks.
 */
export function promptEnvironment(): nunjucks.Environment {
  if (shared) return shared;
  nunjucks.installJinjaCompat();
  const env = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
  // addTest exists at run time but is missing from @types/nunjucks.
  (env as unknown as { addTest(name: string, test: (value: unknown) => boolean): void }).addTest(
    'none',
    (value) => value === null || value === undefined,
  );
  env.addFilter('tojson', (value: unknown) => JSON.stringify(value ?? null));
  env.addFilter('to_json_escaped_string', (value: unknown) =>
    JSON.stringify(String(value ?? '')).slice(1, -1),
  );
  shared = env;
  return env;
}

/** A template that failed to compile, with its 1-based line and column when nunjucks knows them. */
export class TemplateSyntaxError extends Error {
  override readonly name = 'TemplateSyntaxError';
  constructor(
    message: string,
    readonly line: number,
    readonly col: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Compiles a prompt template now, so that syntax errors surface at load time. */
export function compileTemplate(text: string, name: string): nunjucks.Template {
  try {
    return new nunjucks.Template(text, promptEnvironment(), name, true);
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const where = /\[Line (\d+), Column (\d+)\]/.exec(raw);
    const message = raw
      .replace(/^\(.*?\)\s*/s, '')
      .replace(/\[Line \d+, Column \d+\]\s*/s, '')
      .trim()
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join(' ');
    const line = Number(where?.[1] ?? 1);
    const col = Number(where?.[2] ?? 1);
    throw new TemplateSyntaxError(message, line, col, { cause: error });
  }
}
