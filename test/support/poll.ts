/** Waiting on what a running gateway does in its own time (a flush, an alert, a webhook post). */

/**
 * Asks `probe` every 100 ms until it answers something other than undefined, and answers
 * that. No bound of its own: the test's timeout is the bound, so a hang fails the test.
 */
export async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    await Bun.sleep(100);
  }
}
