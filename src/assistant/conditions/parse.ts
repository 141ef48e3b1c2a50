import { SwitchboardError } from '../../resilience/index.js';
import type { Condition } from './ast.js';
// The grammar of grammar.ts, compiled by `npm run generate`.
import { SyntaxError as GrammarError, parse } from './conditionParser.generated.js';

/**
 * A condition that does not parse; `offset` is 0-based into the condition text.
 * Code `CONDITION_SYNTAX`.
 */
export class ConditionSyntaxError extends SwitchboardError {
  override readonly name = 'ConditionSyntaxError';
  override readonly code = 'CONDITION_SYNTAX';
  constructor(
    message: string,
    readonly text: string,
    readonly offset: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Parses a flow condition. Throws ConditionSyntaxError with the offset of the problem. */
export function parseCondition(text: string): Condition {
  try {
    return parse(text) as Condition;
  } catch (error) {
    if (error instanceof GrammarError) {
      const offset = error.location.start.offset;
      throw new ConditionSyntaxError(describe(error, text), text, offset, { cause: error });
    }
    throw error;
  }
}

function describe(error: GrammarError, text: string): string {
  if (error.expected === null || error.expected.length === 0) return error.message;
  const found = error.found === null ? 'end of condition' : `"${error.found}"`;
  const at = error.location.start.offset;
  return `cannot parse condition "${text}": unexpected ${found} at column ${at + 1}`;
}
