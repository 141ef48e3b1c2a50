/** A path into a YAML document: mapping keys and sequence indexes. */
export type KeyPath = readonly (string | number)[];

/** Renders a path the way a user reads it: `mcp_servers[0].oauth.token_url`. */
export function formatKeyPath(path: KeyPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out === '' ? '(document)' : out;
}

/** Reads the value at `path` inside plain data, or undefined. */
export function valueAt(root: unknown, path: KeyPath): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
