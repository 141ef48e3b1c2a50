// The types of conditionParser.generated.js, the condition grammar compiled by `npm run generate`.

/** Where a parse failed. */
export interface ParseLocation {
  readonly start: { readonly offset: number; readonly line: number; readonly column: number };
  readonly end: { readonly offset: number; readonly line: number; readonly column: number };
}

/** A condition that does not match the grammar. */
export class SyntaxError extends Error {
  readonly expected: readonly unknown[] | null;
  readonly found: string | null;
  readonly location: ParseLocation;
}

/** Parses a condition into its syntax tree. */
export function parse(input: string, options?: Readonly<Record<string, unknown>>): unknown;
