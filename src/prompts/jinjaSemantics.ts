import nunjucks from 'nunjucks';
import { PythonFloat, pythonStr } from './python.js';

/**
 * Rasa renders its templates with Jinja2 from Python values, and nunjucks (3.2.4, pinned)
 * differs from it in two ways that change a rendered prompt:
 *
 * - `{{ value }}` prints JavaScript's text (`""` for null, `true`, `a,b`) where Jinja2 prints
 *   Python's `str()` (`None`, `True`, `['a', 'b']`);
 * - conditions (`if`, `not`, `and`, `or`, inline `if`) use JavaScript's truth, where an empty
 *   list or mapping is true; in Python it is false, so `{% if completed_agents %}` with `[]`
 *   takes the other branch.
 *
 * nunjucks has no hook for either: its one output function and the compilation of those five
 * expressions are replaced, once per process. Prompts are the only nunjucks templates here.
 */
export function useJinjaSemantics(): void {
  if (runtime[TRUTH] !== undefined) return;
  runtime[TRUTH] = pythonTruth;
  const original = runtime.suppressValue as (value: unknown, autoescape: boolean) => unknown;
  runtime.suppressValue = (value: unknown, autoescape: boolean): unknown =>
    original(
      value === undefined || typeof value === 'string' || value instanceof SafeString
        ? value
        : pythonStr(value),
      autoescape,
    );
  patchConditions();
}

/** Python's truth: empty lists, mappings and strings, zero and None are false. */
export function pythonTruth(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (value instanceof PythonFloat) return value.value !== 0;
  if (typeof value === 'string' || value instanceof SafeString) return String(value).length > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Map || value instanceof Set) return value.size > 0;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.keys(value).length > 0;
  }
  return true;
}

/** The name under which compiled templates find `pythonTruth` on nunjucks' runtime. */
const TRUTH = 'jinjaTruth';
const runtime = (nunjucks as unknown as { runtime: Record<string, unknown> }).runtime;
const SafeString = nunjucks.runtime.SafeString;

/** The parts of nunjucks' compiler that are changed: it emits JavaScript source as text. */
interface Compiler {
  _emit(code: string): void;
  compile(node: unknown, frame: unknown): void;
}
type Method = (
  this: Compiler,
  node: Record<string, unknown>,
  frame: unknown,
  ...rest: unknown[]
) => void;

function patchConditions(): void {
  const internals = nunjucks as unknown as {
    compiler: { Compiler: { prototype: Record<string, Method> } };
    nodes: { Group: { prototype: object } };
  };
  const proto = internals.compiler.Compiler.prototype;
  const truth = `runtime.${TRUTH}`;
  // A node the compiler accepts as an expression (it checks the class) but compiles as below.
  const truthNode = (cond: unknown) =>
    Object.defineProperties(Object.create(internals.nodes.Group.prototype), {
      typename: { value: 'JinjaTruth' },
      cond: { value: cond },
    });
  // `if` and inline `if` test their condition through Python's truth.
  for (const name of ['compileIf', 'compileInlineIf']) {
    const original = proto[name] as Method;
    proto[name] = function (this: Compiler, node, frame, ...rest) {
      const cond = node.cond;
      node.cond = truthNode(cond);
      try {
        original.call(this, node, frame, ...rest);
      } finally {
        node.cond = cond;
      }
    };
  }
  proto.compileJinjaTruth = function (this: Compiler, node, frame) {
    this._emit(`${truth}(`);
    this.compile(node.cond, frame);
    this._emit(')');
  };
  proto.compileNot = function (this: Compiler, node, frame) {
    this._emit(`!${truth}(`);
    this.compile(node.target, frame);
    this._emit(')');
  };
  // As in Python, `a or b` is a when a is true, else b; `a and b` is b when a is true, else a.
  proto.compileOr = function (this: Compiler, node, frame) {
    this._emit(`(function(l){return ${truth}(l)?l:(`);
    this.compile(node.right, frame);
    this._emit(');})(');
    this.compile(node.left, frame);
    this._emit(')');
  };
  proto.compileAnd = function (this: Compiler, node, frame) {
    this._emit(`(function(l){return ${truth}(l)?(`);
    this.compile(node.right, frame);
    this._emit('):l;})(');
    this.compile(node.left, frame);
    this._emit(')');
  };
}
