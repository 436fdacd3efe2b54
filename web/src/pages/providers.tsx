/** Providers: add a key once (only its hint is ever shown again), see kind, country, limits; delete. */
import { useState } from "preact/hooks";
import { op } from "../api.ts";
import { ActionError, AddForm, Async, Empty, useAction, useLoad } from "../components.tsx";
import type { Provider } from "../types.ts";

export function Providers({ admin }: { admin: boolean }) {
  const [list, reload] = useLoad(() => op<{ providers: Provider[] }>("provider.list"));
  const [error, busy, act] = useAction();
  const remove = (p: Provider) => {
    if (!confirm(`Delete provider ${p.name}? Calls routed to it will fail until another is added.`)) return;
    void act(async () => {
      await op("provider.delete", { id: p.id });
      reload();
    });
  };
  return (
    <>
      <h1>Providers</h1>
      <p class="muted">
        Your own provider keys. A key is sealed when you add it and never shown again, only a hint of its first and last characters.
      </p>
      <AddProvider onAdded={reload} />
      <ActionError error={error} />
      <Async value={list} what="providers" retry={reload}>
        {({ providers }) =>
          providers.length === 0 ? (
            <Empty>No provider yet. Add one above to start making calls.</Empty>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="sr-only">Configured providers</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Country</th>
                    <th scope="col">Key</th>
                    <th scope="col">Scope</th>
                    <th scope="col">Limits</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {providers.map((p) => (
                    <tr key={p.id}>
                      <td>{p.name}</td>
                      <td>{p.provider}</td>
                      <td>{p.country ?? "–"}</td>
                      <td>
                        <code>{p.keyHint}</code>
                      </td>
                      <td>{p.scope}</td>
                      <td>
                        {Object.entries(p.limits ?? {})
                          .map(([k, v]) => `${k}: ${v}`)
                          .join(", ") || "none"}
                      </td>
                      <td class="row">
                        <TestConnection id={p.id} />
                        {(admin || p.scope === "user") && (
                          <button type="button" class="danger" disabled={busy} onClick={() => remove(p)}>
                            Delete
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Async>
    </>
  );
}

function AddProvider({ onAdded }: { onAdded: () => void }) {
  const save = async (data: FormData) => {
    const params: Record<string, unknown> = { provider: data.get("provider"), apiKey: data.get("apiKey") };
    for (const k of ["name", "baseUrl", "country", "scope"]) if (data.get(k)) params[k] = data.get(k);
    const rpm = Number(data.get("requestsPerMinute"));
    if (rpm > 0) params.limits = { requestsPerMinute: rpm };
    await op("provider.create", params);
  };
  return (
    <AddForm title="Add a provider" submitLabel="Add provider" save={save} onAdded={onAdded}>
      <label>
        Kind <input name="provider" required placeholder="openai, anthropic, mistral, …" autoComplete="off" />
      </label>
      <label>
        Name (optional) <input name="name" pattern="[^/\s]+" placeholder="e.g. openai-eu" />
      </label>
      <label>
        API key <input name="apiKey" type="password" required autoComplete="off" />
      </label>
      <label>
        Base URL (optional) <input name="baseUrl" type="url" placeholder="https://…" />
      </label>
      <label>
        Country (optional) <input name="country" pattern="[A-Za-z]{2}" maxLength={2} placeholder="US" />
      </label>
      <label>
        Who may use it
        <select name="scope">
          <option value="organization">the whole organization</option>
          <option value="user">only me and my service accounts</option>
        </select>
      </label>
      <label>
        Requests per minute (optional) <input name="requestsPerMinute" type="number" min={1} />
      </label>
    </AddForm>
  );
}

interface TestResult {
  refusedBecause: string | null;
  reachable: boolean | null;
  modelCount: number | null;
  error: string | null;
}

/** Policy verdict and reachability, on demand (it calls the provider). */
function TestConnection({ id }: { id: string }) {
  const [result, setResult] = useState<TestResult | null>(null);
  const [error, busy, act] = useAction();
  const run = () =>
    void act(async () => {
      setResult(await op<TestResult>("provider.test", { id }));
    });
  return (
    <div>
      <button type="button" disabled={busy} onClick={run}>
        {busy ? "Testing…" : "Test connection"}
      </button>
      <ActionError error={error} />
      {result && (
        <p class="small" role="status">
          {result.refusedBecause ? (
            <span class="badge critical">not authorized</span>
          ) : result.reachable ? (
            <span class="badge ok">reachable</span>
          ) : result.reachable === false ? (
            <span class="badge critical">unreachable</span>
          ) : (
            <span class="badge">authorized</span>
          )}{" "}
          {result.refusedBecause ?? result.error ?? (result.modelCount !== null ? `${result.modelCount} models listed` : "")}
        </p>
      )}
    </div>
  );
}
