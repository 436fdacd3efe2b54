/** Usage and cost: daily calls and cost (filterable by timeframe and provider), the prompt cache's share per provider, per key, and the analytics endpoints where the gateway has them. */
import { useState } from "preact/hooks";
import { get, op } from "../api.ts";
import { TimeChart, usd } from "../chart.tsx";
import { Async, dollars, Empty, percent, useLoad, when } from "../components.tsx";
import type { Analytics, ApiKey, DailyUsage } from "../types.ts";

/** The forecast horizons the analytics answer always carries (its `model` entry is the fit, not a horizon). */
const HORIZONS = [
  ["7day", "next 7 days"],
  ["30day", "next 30 days"],
  ["90day", "next 90 days"],
] as const;

export function Usage({ admin }: { admin: boolean }) {
  const [days, setDays] = useState(30);
  const [provider, setProvider] = useState("");
  const [usage, reload] = useLoad(
    () => op<{ days: DailyUsage[] }>("usage.daily", { days, ...(provider ? { provider } : {}) }),
    [days, provider],
  );
  const period = `${days}d`;
  const [forecast] = useLoad(
    () => get<Analytics>(`/api/byok/analytics/forecast/${period}${provider ? `?provider=${encodeURIComponent(provider)}` : ""}`),
    [period, provider],
  );
  const [keys, reloadKeys] = useLoad(
    () => (admin ? op<{ apiKeys: (ApiKey & { ownerEmail: string | null })[] }>("org.api-keys.list") : Promise.resolve({ apiKeys: [] })),
    [admin],
  );
  return (
    <>
      <h1>Usage and cost</h1>
      <form class="row" aria-label="Filter usage" onSubmit={(e) => e.preventDefault()}>
        <label>
          Timeframe
          <select value={String(days)} onChange={(e) => setDays(Number((e.currentTarget as HTMLSelectElement).value))}>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
            <option value="90">90 days</option>
          </select>
        </label>
        <label>
          Provider{" "}
          <input value={provider} placeholder="all" onChange={(e) => setProvider((e.currentTarget as HTMLInputElement).value.trim())} />
        </label>
        <button type="button" onClick={() => (reload(), reloadKeys())}>
          Refresh
        </button>
      </form>
      <Async value={usage} what="usage" retry={reload}>
        {({ days: series }) => {
          const calls = series.reduce((s, d) => s + d.requests, 0);
          const cost = series.reduce((s, d) => s + d.costMicros, 0);
          const providers = new Map<string, { requests: number; costMicros: number; promptTokens: number; cacheReadTokens: number }>();
          for (const d of series)
            for (const [p, v] of Object.entries(d.byProvider)) {
              const t = providers.get(p) ?? { requests: 0, costMicros: 0, promptTokens: 0, cacheReadTokens: 0 };
              providers.set(p, {
                requests: t.requests + v.requests,
                costMicros: t.costMicros + v.costMicros,
                promptTokens: t.promptTokens + v.promptTokens,
                cacheReadTokens: t.cacheReadTokens + v.cacheReadTokens,
              });
            }
          return calls === 0 ? (
            <Empty>No calls in this timeframe. (Calls appear here within seconds of being made.)</Empty>
          ) : (
            <>
              <p>
                <strong data-testid="usage-calls">{calls.toLocaleString()}</strong> calls, <strong>{dollars(cost)}</strong> in the last{" "}
                {series.length} days.
              </p>
              <TimeChart
                label="Calls"
                days={series.map((d) => d.date)}
                values={series.map((d) => d.requests)}
                format={(v) => (Number.isInteger(v) ? String(v) : "")}
              />
              <TimeChart label="Cost (USD)" days={series.map((d) => d.date)} values={series.map((d) => d.costMicros / 1e6)} format={usd} />
              <h2>Per provider</h2>
              <table data-testid="usage-providers">
                <thead>
                  <tr>
                    <th scope="col">Provider</th>
                    <th scope="col">Calls</th>
                    <th scope="col">Cost</th>
                    <th scope="col" title="The share of prompt tokens the provider's prompt cache served">
                      Prompt from cache
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {[...providers].map(([p, v]) => (
                    <tr key={p}>
                      <td>{p}</td>
                      <td>{v.requests.toLocaleString()}</td>
                      <td>{dollars(v.costMicros)}</td>
                      <td>{percent(v.cacheReadTokens, v.promptTokens)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          );
        }}
      </Async>
      <section>
        <h2>Forecast and anomalies</h2>
        <Async value={forecast} what="forecast">
          {(a) => (
            <ul class="plain">
              {HORIZONS.map(([k, words]) => (
                <li key={k}>
                  Forecast, {words}: {dollars(Math.round(a.forecast[k] * 1e6))}
                </li>
              ))}
              {a.anomalies.map((x) => (
                <li key={x.date}>
                  <span class={`badge ${x.severity}`}>{x.severity}</span> {x.date}: ${x.cost.toFixed(2)} against $
                  {x.expectedCost.toFixed(2)} expected
                </li>
              ))}
            </ul>
          )}
        </Async>
      </section>
      {admin && (
        <section>
          <h2>Per key</h2>
          <Async value={keys} what="keys" retry={reloadKeys}>
            {({ apiKeys }) =>
              apiKeys.length === 0 ? (
                <Empty>No active key.</Empty>
              ) : (
                <div class="table-wrap">
                  <table data-testid="usage-keys">
                    <thead>
                      <tr>
                        <th scope="col">Key</th>
                        <th scope="col">Owner</th>
                        <th scope="col">Calls</th>
                        <th scope="col">Last use</th>
                        <th scope="col">Spent</th>
                      </tr>
                    </thead>
                    <tbody>
                      {apiKeys.map((k) => (
                        <tr key={k.id}>
                          <td>
                            <code>{k.keyPrefix}…</code> {k.name}
                          </td>
                          <td>{k.ownerEmail ?? "–"}</td>
                          <td>{k.requestCount.toLocaleString()}</td>
                          <td>{when(k.lastUsed)}</td>
                          <td>${(k.spentCents / 100).toFixed(4)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )
            }
          </Async>
        </section>
      )}
    </>
  );
}
