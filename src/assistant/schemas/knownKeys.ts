const KNOWN_KEYS_PREFIX = 'known-keys:';
const HINT_PREFIX = 'hint:';

/** What to write instead of a key an object does not have, told from the key's value. */
export type KeyHints = Readonly<Record<string, (value: unknown) => string>>;

/**
 * The error option of our strict objects: it records the allowed keys in the issue so that
 * unknown keys can be reported one by one with a did-you-mean suggestion, and for a key `hints`
 * knows, a line saying what to write instead.
 */
export function knownKeysError(keys: readonly string[], hints: KeyHints = {}) {
  return (issue: {
    code?: string;
    input?: unknown;
    keys?: readonly string[];
  }): string | undefined => {
    if (issue.code !== 'unrecognized_keys') return undefined;
    const input = issue.input !== null && typeof issue.input === 'object' ? issue.input : {};
    const lines = (issue.keys ?? []).flatMap((key) => {
      const hint = Object.hasOwn(hints, key) ? hints[key] : undefined;
      const value = (input as Record<string, unknown>)[key];
      return hint ? [`${HINT_PREFIX}${key}=${hint(value).replaceAll('\n', ' ')}`] : [];
    });
    return [`${KNOWN_KEYS_PREFIX}${keys.join(',')}`, ...lines].join('\n');
  };
}

/** The allowed keys a strict object recorded in its unknown-keys message, if it did. */
export function knownKeysOf(message: string): string[] {
  const [first = ''] = message.split('\n');
  return first.startsWith(KNOWN_KEYS_PREFIX)
    ? first.slice(KNOWN_KEYS_PREFIX.length).split(',')
    : [];
}

/** What the unknown-keys message says to write instead of `key`, if it says anything. */
export function unknownKeyHint(message: string, key: string): string | undefined {
  const line = message.split('\n').find((l) => l.startsWith(`${HINT_PREFIX}${key}=`));
  return line?.slice(`${HINT_PREFIX}${key}=`.length);
}
