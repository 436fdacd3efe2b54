/** Overview: spend today and this month against the budget, calls, error rate, scanner flags and blocks, 30 days of cost, providers' rate-limit status. */
import { get, op } from "../api.ts";
import { TimeChart, usd } from "../chart.tsx";
import { Async, centsToDollars, dollars, Empty, Failure, Loading, percent, useLoad } from "../components.tsx";
import type { DailyUsage, Preferences } from "../types.ts";

/** The scanner's flags and blocks over the window (metrics.comprehensive). */
interface ScanCounts {
  security: { flagged: { injection: number }; blocked: { secret: number; injection: number; pii: number } };
}

interface RateLimitStatus {
  providers: { provider: string; status: string; message: string; percentages?: Record<string, number> }[];
}

export function Overview() {
  const [usage, reload] = useLoad(() => op<{ days: DailyUsage[] }>("usage.daily", { days: 30 }));
  const [prefs] = useLoad(() => op<Preferences>("user.preferences"));
  const [limits] = useLoad(() => get<RateLimitStatus>("/api/user/rate-limit-status"));
  const [scans] = useLoad(() => op<ScanCounts>("metrics.comprehensive", { windowDays: 30 }));
  return (
    <>
      <h1>Overview</h1>
      <Async value={usage} what="usage" retry={reload}>
        {({ days }) => {
          const today = days.at(-1)!;
          const month = today.date.slice(0, 7);
          const monthDays = days.filter((d) => d.date.startsWith(month));
          const monthCost = monthDays.reduce((s, d) => s + d.costMicros, 0);
          const calls = days.reduce((s, d) => s + d.requests, 0);
          const errors = days.reduce((s, d) => s + d.errors, 0);
          const budget = prefs.state === "ready" ? prefs.data.monthlyBudgetCents : null;
          return (
            <>
              <div class="cards">
                <Card title="Spend today" value={dollars(today.costMicros)} />
                <Card
                  title="Spend this month"
                  value={dollars(monthCost)}
                  note={
                    budget === null
                      ? "no monthly budget set"
                      : `of ${centsToDollars(budget)} budget (${percent(monthCost / 10_000, budget)})`
                  }
                />
                <Card title="Calls, 30 days" value={calls.toLocaleString()} />
                <Card title="Error rate, 30 days" value={percent(errors, calls)} note={`${errors.toLocaleString()} failed calls`} />
                {scans.state === "ready" && <ScanCard security={scans.data.security} />}
              </div>
              <section>
                <h2>Cost per day, last 30 days</h2>
                {calls === 0 ? (
                  <Empty>No calls in the last 30 days yet.</Empty>
                ) : (
                  <TimeChart label="Cost (USD)" days={days.map((d) => d.date)} values={days.map((d) => d.costMicros / 1e6)} format={usd} />
                )}
              </section>
            </>
          );
        }}
      </Async>
      <section>
        <h2>Providers' rate limits</h2>
        {limits.state === "loading" ? (
          <Loading what="rate-limit status" />
        ) : limits.state === "failed" ? (
          <Failure error={limits.error} />
        ) : limits.data.providers.length === 0 ? (
          <Empty>No provider has limits configured or reported yet.</Empty>
        ) : (
          <ul class="plain">
            {limits.data.providers.map((p) => (
              <li key={p.provider}>
                <span class={`badge ${p.status}`}>{p.status}</span> <strong>{p.provider}</strong> {p.message}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function ScanCard({ security: s }: ScanCounts) {
  const blocked = s.blocked.secret + s.blocked.injection + s.blocked.pii;
  return (
    <Card
      title="Security scan, 30 days"
      value={`${s.flagged.injection.toLocaleString()} flagged`}
      note={`${blocked.toLocaleString()} blocked: ${s.blocked.secret} credentials, ${s.blocked.injection} injections, ${s.blocked.pii} personal data`}
    />
  );
}

function Card({ title, value, note }: { title: string; value: string; note?: string }) {
  return (
    <div class="card">
      <div class="card-title">{title}</div>
      <div class="card-value">{value}</div>
      {note && <div class="muted small">{note}</div>}
    </div>
  );
}
