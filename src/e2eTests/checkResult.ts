/** The outcome of one assertion or step check. */
export type CheckResult =
  | { readonly status: 'passed'; readonly matched?: number }
  | { readonly status: 'failed'; readonly expected: string; readonly actual: string }
  | { readonly status: 'not_checked'; readonly reason: string };

export const passed = (matched?: number): CheckResult =>
  matched === undefined ? { status: 'passed' } : { status: 'passed', matched };

export const failed = (expected: string, actual: string): CheckResult => ({
  status: 'failed',
  expected,
  actual,
});

/** How the bot messages of a turn read in a failure: `"Hi" (utter_greet); "Bye"`. */
export function listOrNone(items: readonly string[], none: string): string {
  return items.length === 0 ? none : items.join('; ');
}
