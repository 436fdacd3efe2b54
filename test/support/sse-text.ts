/** A whole SSE body read as text, for tests: its events with their names and data. */

/** The `data:` payloads of an SSE body, with their event names. */
export function sseEvents(text: string): { event: string | null; data: string }[] {
  return text
    .split("\n\n")
    .filter((b) => b.trim())
    .map((b) => ({
      event: /^event: (.*)$/m.exec(b)?.[1] ?? null,
      data: b
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .map((l) => l.slice(6))
        .join("\n"),
    }));
}

/**
 * The JSON payloads of an SSE body's events, in order (blocks without data, such as comments, left out);
 * the OpenAI format's closing `[DONE]` is left out, or kept as the string "[DONE]" with `done: "keep"`.
 */
export function sseJson(text: string, done: "drop" | "keep" = "drop"): any[] {
  return sseEvents(text)
    .filter((e) => e.data !== "" && (done === "keep" || e.data !== "[DONE]"))
    .map((e) => (e.data === "[DONE]" ? e.data : JSON.parse(e.data)));
}
