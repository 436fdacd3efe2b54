/**
 * Routing playground: a prompt sent with each strategy (`ai.route`, the operation behind
 * POST /api/byok/route, so the request can name the side whose providers answer and pay);
 * each decision as a table row, its reasoning and runners-up below.
 */
import { useState } from "preact/hooks";
import { op } from "../api.ts";
import { dollars, Failure } from "../components.tsx";
import { type Choice, SidePicker, type Viewer } from "../side.tsx";

const STRATEGIES = ["cost", "speed", "quality", "balanced"] as const;

/** The fields of the route answer the page shows (the specification's MoE route response). */
interface RouteDecision {
  selectedProvider: string;
  selectedModel: string;
  strategy: string;
  reasoning: string;
  alternativeProviders: { provider: string; model: string; estimatedCost: number; estimatedLatency: number; score: number }[];
  response: { estimated_cost?: number };
  performanceMetrics: { latency: number; costSavings: number; qualityScore: number };
}

/** Money arrives as US dollars; the page's formatter takes micro-dollars. */
const usd = (value: number | undefined) => (typeof value === "number" ? dollars(Math.round(value * 1e6)) : "–");

export function Routing({ viewer }: { viewer: Viewer }) {
  const [side, setSide] = useState<Choice>("");
  const [results, setResults] = useState<RouteDecision[] | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const prompt = String(new FormData(e.currentTarget as HTMLFormElement).get("prompt") ?? "");
    setBusy(true);
    setError(null);
    try {
      const out: RouteDecision[] = [];
      for (const strategy of STRATEGIES)
        out.push(await op<RouteDecision>("ai.route", { strategy, messages: [{ role: "user", content: prompt }] }, side || undefined));
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
        <SidePicker
          legend="Answered and paid by"
          none="your own providers first, then the organization's"
          viewer={viewer}
          side={side}
          onChange={setSide}
        />
        <label>
          Prompt <textarea name="prompt" required rows={4} maxLength={4000} />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? "Routing…" : "Route with each strategy"}
        </button>
      </form>
      {error && <Failure error={error} />}
      {results && <Decisions decisions={results} />}
    </>
  );
}

function Decisions({ decisions }: { decisions: RouteDecision[] }) {
  return (
    <section class="panel">
      <h2>Decisions</h2>
      <div class="table-wrap">
        <table data-testid="route-decisions" class="decisions">
          <thead>
            <tr>
              <th scope="col">Strategy</th>
              <th scope="col">Choice</th>
              <th scope="col">Quality score</th>
              <th scope="col">Cost</th>
              <th scope="col">Latency</th>
              <th scope="col">Saved</th>
              <th scope="col">Reasoning</th>
            </tr>
          </thead>
          <tbody>
            {decisions.map((d) => (
              <tr key={d.strategy}>
                <td>{d.strategy}</td>
                <td>
                  <code>{d.selectedModel}</code>
                  <div class="muted small">{d.selectedProvider}</div>
                </td>
                <td>{d.performanceMetrics.qualityScore}</td>
                <td>{usd(d.response.estimated_cost)}</td>
                <td>{d.performanceMetrics.latency} ms</td>
                <td>{usd(d.performanceMetrics.costSavings)}</td>
                <td class="reasoning">{d.reasoning}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {decisions.map((d) => (
        <details key={d.strategy}>
          <summary>
            Runners-up for {d.strategy} ({d.alternativeProviders.length})
          </summary>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Score</th>
                  <th scope="col">Estimated cost</th>
                  <th scope="col">Estimated latency</th>
                </tr>
              </thead>
              <tbody>
                {d.alternativeProviders.map((a) => (
                  <tr key={`${a.provider}/${a.model}`}>
                    <td>
                      <code>{a.model}</code>
                    </td>
                    <td>{a.provider}</td>
                    <td>{a.score}</td>
                    <td>{usd(a.estimatedCost)}</td>
                    <td>{a.estimatedLatency} ms</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ))}
    </section>
  );
}
