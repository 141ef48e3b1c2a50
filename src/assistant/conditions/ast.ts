/** A literal value in a condition. */
export type LiteralValue = string | number | boolean | null;

export type ComparisonOperator =
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'is'
  | 'is not'
  | 'in'
  | 'not in'
  | 'contains'
  | 'matches';

/** The parsed form of a condition such as `slots.amount > 100 and not slots.confirmed`. */
export type Condition =
  | { readonly type: 'literal'; readonly value: LiteralValue }
  | { readonly type: 'slot'; readonly name: string; readonly offset: number }
  | { readonly type: 'context'; readonly path: readonly string[] }
  | { readonly type: 'list'; readonly items: readonly Condition[] }
  | { readonly type: 'not'; readonly operand: Condition }
  | { readonly type: 'and' | 'or'; readonly left: Condition; readonly right: Condition }
  | {
      readonly type: 'compare';
      readonly op: ComparisonOperator;
      readonly left: Condition;
      readonly right: Condition;
    };

/** Every slot a condition reads, with its offset in the source text. */
export function referencedSlots(condition: Condition): { name: string; offset: number }[] {
  switch (condition.type) {
    case 'slot':
      return [{ name: condition.name, offset: condition.offset }];
    case 'literal':
    case 'context':
      return [];
    case 'list':
      return condition.items.flatMap(referencedSlots);
    case 'not':
      return referencedSlots(condition.operand);
    case 'and':
    case 'or':
    case 'compare':
      return [...referencedSlots(condition.left), ...referencedSlots(condition.right)];
    default:
      return assertNever(condition);
  }
}

/** Every `context.<key>…` a condition reads, as its path of keys. */
export function referencedContext(condition: Condition): (readonly string[])[] {
  switch (condition.type) {
    case 'context':
      return [condition.path];
    case 'slot':
    case 'literal':
      return [];
    case 'list':
      return condition.items.flatMap(referencedContext);
    case 'not':
      return referencedContext(condition.operand);
    case 'and':
    case 'or':
    case 'compare':
      return [...referencedContext(condition.left), ...referencedContext(condition.right)];
    default:
      return assertNever(condition);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected condition node ${JSON.stringify(value)}`);
}
