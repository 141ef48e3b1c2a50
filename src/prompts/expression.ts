import type nunjucks from 'nunjucks';
import { compileTemplate } from './environment.js';

const compiled = new Map<string, nunjucks.Template>();

/**
 * Evaluates a Jinja expression such as `result.structuredContent.reference` and returns its
 * value with its JSON type (a number stays a number). Undefined parts evaluate to null.
 */
export function evaluateExpression(
  expression: string,
  scope: Readonly<Record<string, unknown>>,
): unknown {
  let template = compiled.get(expression);
  if (!template) {
    template = compileTemplate(`{{ (${expression}) | tojson }}`, expression);
    compiled.set(expression, template);
  }
  return JSON.parse(template.render(scope)) as unknown;
}
