/** The test case and user message being run: stubs and scripted commands look here. */
export interface RunningCase {
  name: string | undefined;
  message: string | undefined;
}

/**
 * The keys under which something is looked up for the running test case, most specific first:
 * `<test case>::<key>` (the name as written, or with `_` for spaces as Rasa writes it), then `<key>`.
 */
export function scopedKeys(running: RunningCase, key: string): string[] {
  if (running.name === undefined) return [key];
  const names = [...new Set([running.name, running.name.replaceAll(' ', '_')])];
  return [...names.map((name) => `${name}::${key}`), key];
}
