import nunjucks from 'nunjucks';
import { SwitchboardError } from '../resilience/index.js';
import { useJinjaSemantics } from './jinjaSemantics.js';
import { PythonFloat, pythonJsonDumps, pythonStr } from './python.js';

let shared: nunjucks.Environment | undefined;

/**
 * The template environment for prompts: Jinja2-compatible, never HTML-escaping, with the tests
 * and filters Rasa prompt templates use that nunjucks lacks.
 */
export function promptEnvironment(): nunjucks.Environment {
  if (shared) return shared;
  nunjucks.installJinjaCompat();
  useJinjaSemantics();
  const env = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
  // addTest exists at run time but is missing from @types/nunjucks.
  const tests = env as unknown as {
    addTest(name: string, test: (value: unknown) => boolean): void;
  };
  tests.addTest('none', (value) => value === null || value === undefined);
  tests.addTest('number', (value) => typeof value === 'number' || value instanceof PythonFloat);
  addPythonFilters(env);
  addJinjaUndefinedHandling(env);
  addJinjaFilters(env);
  shared = env;
  return env;
}

/** Filters whose output Rasa's templates get from Python: JSON as `json.dumps` writes it, `str()`. */
function addPythonFilters(env: nunjucks.Environment): void {
  // Rasa's own filter: json.dumps(value, ensure_ascii=False), so a string keeps its quotes.
  env.addFilter('to_json_escaped_string', (value: unknown) => pythonJsonDumps(value ?? null));
  // Jinja2's: keys sorted, and <, >, & and ' escaped for HTML.
  env.addFilter('tojson', (value: unknown) =>
    pythonJsonDumps(value ?? null, { sortKeys: true, asciiOnly: true }).replace(
      /[<>&']/g,
      (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
  env.addFilter('string', (value: unknown) => (value === undefined ? '' : pythonStr(value)));
  env.addFilter('join', (value: unknown, separator = '', attribute?: string) => {
    const items = Array.isArray(value) ? value : [];
    const picked = attribute === undefined ? items : items.map((i) => attributeOf(i, attribute));
    return picked.map((item) => pythonStr(item)).join(String(separator));
  });
}

/**
 * A template that failed to compile, with its 1-based line and column when nunjucks knows them.
 * Code `TEMPLATE_SYNTAX`.
 */
export class TemplateSyntaxError extends SwitchboardError {
  override readonly name = 'TemplateSyntaxError';
  override readonly code = 'TEMPLATE_SYNTAX';
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

/** Renders a compiled template as Jinja2 does by default: one trailing newline is dropped. */
export function renderTemplate(
  template: nunjucks.Template,
  variables: Readonly<Record<string, unknown>>,
): string {
  const text = template.render(variables);
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** The filters `addFilter` registered, keyed by name (nunjucks keeps them on the environment). */
type FilterTable = Record<string, ((this: unknown, ...args: unknown[]) => unknown) | undefined>;

/**
 * Filters that nunjucks applies to an undefined value by throwing, where Jinja2 treats an
 * undefined value as empty: `{{ context.missing | join(', ') }}` renders "", not an error.
 * The value each gets in its place is what Jinja2's Undefined behaves as for it.
 */
const EMPTY_FOR_UNDEFINED: Readonly<Record<string, () => unknown>> = {
  join: () => [],
  first: () => [],
  last: () => [],
  list: () => [],
  sum: () => [],
  batch: () => [],
  slice: () => [],
  groupby: () => [],
  selectattr: () => [],
  rejectattr: () => [],
  select: () => [],
  reject: () => [],
  dictsort: () => ({}),
  random: () => [],
  string: () => '',
  trim: () => '',
};

function addJinjaUndefinedHandling(env: nunjucks.Environment): void {
  const filters = (env as unknown as { filters: FilterTable }).filters;
  for (const [name, empty] of Object.entries(EMPTY_FOR_UNDEFINED)) {
    const original = filters[name];
    if (!original) continue;
    // A function, not an arrow: some filters read the template context nunjucks binds as this.
    env.addFilter(name, function (this: unknown, value: unknown, ...rest: unknown[]) {
      return original.call(this, value === undefined ? empty() : value, ...rest);
    });
  }
}

/** Jinja2 filters nunjucks lacks that Rasa templates use. */
function addJinjaFilters(env: nunjucks.Environment): void {
  const filters = (env as unknown as { filters: FilterTable }).filters;
  env.addFilter('map', function (this: unknown, value: unknown, ...args: unknown[]) {
    const items = Array.isArray(value) ? value : [];
    const options = args.find(
      (a): a is { attribute: string } =>
        a !== null && typeof a === 'object' && 'attribute' in (a as object),
    );
    if (options) return items.map((item) => attributeOf(item, String(options.attribute)));
    const [name, ...rest] = args;
    const filter = typeof name === 'string' ? filters[name] : undefined;
    return filter ? items.map((item) => filter.call(this, item, ...rest)) : items;
  });
  env.addFilter('unique', (value: unknown) =>
    Array.isArray(value) ? [...new Set(value)] : (value ?? []),
  );
  env.addFilter('items', (value: unknown) =>
    value !== null && typeof value === 'object' ? Object.entries(value) : [],
  );
}

function attributeOf(item: unknown, path: string): unknown {
  let current = item;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
