const KNOWN_KEYS_PREFIX = 'known-keys:';

/**
 * The error option of our strict objects: it records the allowed keys in the issue so that
 * unknown keys can be reported one by one with a did-you-mean suggestion.
 */
export function knownKeysError(keys: readonly string[]) {
  return (issue: { code?: string }): string | undefined =>
    issue.code === 'unrecognized_keys' ? `${KNOWN_KEYS_PREFIX}${keys.join(',')}` : undefined;
}

/** The allowed keys a strict object recorded in its unknown-keys message, if it did. */
export function knownKeysOf(message: string): string[] {
  return message.startsWith(KNOWN_KEYS_PREFIX)
    ? message.slice(KNOWN_KEYS_PREFIX.length).split(',')
    : [];
}
