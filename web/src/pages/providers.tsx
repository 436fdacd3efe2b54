/**
 * Providers: add a key once (only its hint is ever shown again), see kind, country, limits,
 * whose it is; delete. The page says which side of the organization it acts on and sends it
 * as the request's `context.scope` (docs/operations.md): the organization's providers, the
 * signed-in person's own, or (no side) every provider the person may see.
 */
import { useState } from "preact/hooks";
import { op } from "../api.ts";
import { ActionError, AddForm, Async, Empty, useAction, useLoad } from "../components.tsx";
import { type Choice, SidePicker, type Viewer, yourself } from "../side.tsx";
import type { Member, Provider } from "../types.ts";

export function Providers({ viewer }: { viewer: Viewer }) {
  const [side, setSide] = useState<Choice>("");
  const [list, reload] = useLoad(() => op<{ providers: Provider[] }>("provider.list", {}, side || undefined), [side]);
  // Admins see members' own providers: their addresses say whose each is.
  const [members] = useLoad(
    () => (viewer.admin ? op<{ members: Member[] }>("org.members.list") : Promise.resolve({ members: [] as Member[] })),
    [viewer.admin],
  );
  const emails = new Map(members.state === "ready" ? members.data.members.map((m) => [m.id, m.email] as const) : []);
  const owner = (p: Provider) =>
    p.ownerUserId === null ? "the organization" : p.ownerUserId === viewer.id ? "you" : (emails.get(p.ownerUserId) ?? "another member");
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
        Provider keys of the organization and of its members. A key is sealed when it is added and never shown again, only a hint of its
        first and last characters.
      </p>
      <SidePicker
        legend="Acting for"
        none={viewer.admin ? "everyone: the organization and every member" : "the organization and yourself"}
        viewer={viewer}
        side={side}
        onChange={setSide}
      />
      <p data-testid="acting-for" role="status">
        {actingFor(viewer, side)}
      </p>
      {side === "organization" && !viewer.admin ? (
        <p class="muted small">Only organization admins add the organization's providers.</p>
      ) : (
        <AddProvider viewer={viewer} side={side} onAdded={reload} />
      )}
      <ActionError error={error} />
      <Async value={list} what="providers" retry={reload}>
        {({ providers }) =>
          providers.length === 0 ? (
            <Empty>{side === "" ? "No provider yet. Add one above to start making calls." : "No provider on this side yet."}</Empty>
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
                    <th scope="col">Belongs to</th>
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
                      <td>{owner(p)}</td>
                      <td>
                        {Object.entries(p.limits ?? {})
                          .map(([k, v]) => `${k}: ${v}`)
                          .join(", ") || "none"}
                      </td>
                      <td class="row">
                        <TestConnection id={p.id} />
                        {(viewer.admin || p.ownerUserId === viewer.id) && (
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

function actingFor(viewer: Viewer, side: Choice): string {
  if (side === "organization")
    return `Acting for the organization (${viewer.organization}): only its providers are listed${viewer.admin ? ", and a provider added here is the organization's, for every member and service account" : ""}.`;
  if (side === "user")
    return `Acting for ${yourself(viewer)}: only your own providers are listed, and a provider added here is yours (you and the service accounts you created use it).`;
  return viewer.admin
    ? "Every provider of the organization: the organization's and each member's own."
    : "The organization's providers and your own.";
}

/**
 * With a side chosen, the provider is added on that side (the request's `context.scope`);
 * without one, an admin picks who may use it, and a member adds their own (the operation's
 * default for a person: choosing the organization is an admin's act).
 */
function AddProvider({ viewer, side, onAdded }: { viewer: Viewer; side: Choice; onAdded: () => void }) {
  const save = async (data: FormData) => {
    const params: Record<string, unknown> = { provider: data.get("provider"), apiKey: data.get("apiKey") };
    for (const k of ["name", "baseUrl", "country", "scope"]) if (data.get(k)) params[k] = data.get(k);
    const rpm = Number(data.get("requestsPerMinute"));
    if (rpm > 0) params.limits = { requestsPerMinute: rpm };
    await op("provider.create", params, side || undefined);
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
      {side === "" && viewer.admin ? (
        <label>
          Who may use it
          <select name="scope">
            <option value="organization">the whole organization</option>
            <option value="user">only me and my service accounts</option>
          </select>
        </label>
      ) : (
        <p class="muted small">
          {side === "organization" ? "Added for the whole organization." : "Added for you and the service accounts you created."}
        </p>
      )}
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
