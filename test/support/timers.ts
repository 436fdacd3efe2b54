/** How many timers `run` arms (calls to the global setTimeout while it runs). */
export function timersArmedBy(run: () => void): number {
  const original = globalThis.setTimeout;
  let armed = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    armed++;
    return original(...args);
  }) as typeof setTimeout;
  try {
    run();
  } finally {
    globalThis.setTimeout = original;
  }
  return armed;
}
