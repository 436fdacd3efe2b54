/** Routing playground: a prompt sent with each strategy to POST /api/byok/route; the choice, the alternatives, the answer. */
import { useState } from "preact/hooks";
import { post } from "../api.ts";
import { Failure } from "../components.tsx";

const STRATEGIES = ["cost", "speed", "quality", "balanced"] as const;

export function Routing() {
  const [results, setResults] = useState<Record<string, unknown> | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const prompt = String(new FormData(e.currentTarget as HTMLFormElement).get("prompt") ?? "");
    setBusy(true);
    setError(null);
    try {
      const out: Record<string, unknown> = {};
      for (const strategy of STRATEGIES)
        out[strategy] = await post("/api/byok/route", { strategy, messages: [{ role: "user", content: prompt }] });
      setResults(out);
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h1>Routing playground</h1>
      <form class="panel" onSubmit={submit} aria-label="Try routing">
        <label>
          Prompt <textarea name="prompt" required rows={4} maxLength={4000} />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? "Routing…" : "Route with each strategy"}
        </button>
      </form>
      {error && <Failure error={error} />}
      {results &&
        Object.entries(results).map(([strategy, r]) => (
          <section class="panel" key={strategy}>
            <h2>{strategy}</h2>
            <pre>{JSON.stringify(r, null, 2)}</pre>
          </section>
        ))}
    </>
  );
}
