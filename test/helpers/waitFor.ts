/**
 * Resolves with the first truthy value `probe` returns, polling every `intervalMs`; rejects with
 * `description` and the last value once `timeoutMs` has passed. Tests wait on conditions, never
 * on the clock.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  options: { timeoutMs?: number; intervalMs?: number; description?: string } = {},
): Promise<NonNullable<T>> {
  const { timeoutMs = 20_000, intervalMs = 50, description = 'a condition' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline)
      throw new Error(`waited ${timeoutMs} ms for ${description}; last: ${String(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
