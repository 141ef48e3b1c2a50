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

/** A list in a failure: names joined with commas (messages with `; `), or what stands for none. */
export function listOrNone(items: readonly string[], none: string, separator = ', '): string {
  return items.length === 0 ? none : items.join(separator);
}
