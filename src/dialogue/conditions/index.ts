export type { ComparisonOperator, Condition, LiteralValue } from './ast.js';
export { referencedSlots } from './ast.js';
export type { ConditionScope } from './evaluate.js';
export { conditionHolds, evaluateCondition, evaluateOperand } from './evaluate.js';
export { ConditionSyntaxError, parseCondition } from './parse.js';
