export type { ComparisonOperator, Condition, LiteralValue } from './ast.js';
export { referencedSlots } from './ast.js';
export { ConditionSyntaxError, parseCondition } from './parse.js';
