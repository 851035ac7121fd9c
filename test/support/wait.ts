/**
 * Bounded polling: waits until `probe` returns something truthy, checking every `intervalMs`,
 * and fails with a message naming what it waited for. Used instead of fixed sleeps.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  what: string,
  { timeoutMs = 5_000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
