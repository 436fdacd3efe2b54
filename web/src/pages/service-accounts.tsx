/** Service accounts and keys: create (key shown once, with a copy button), last use, spend and caps, set caps, rotate, revoke with a reason, delete. */
import { useState } from "preact/hooks";
import { op } from "../api.ts";
import { ActionError, Async, centsToDollars, Empty, SecretOnce, useAction, useLoad, when } from "../components.tsx";
import type { ApiKey, ServiceAccount } from "../types.ts";

const centsOrNull = (raw: FormDataEntryValue | null) => (raw === null || raw === "" ? null : Math.round(Number(raw) * 100));

export function ServiceAccounts() {
  const [list, reload] = useLoad(() => op<{ serviceAccounts: ServiceAccount[] }>("org.service-accounts.list"));
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  return (
    <>
      <h1>Service accounts and keys</h1>
      <p class="muted">Applications call the gateway with a service account's key. Keys are shown once, at creation or rotation.</p>
      {secret ? (
        <SecretOnce title={secret.title} value={secret.value} onDone={() => setSecret(null)} />
      ) : (
        <CreateAccount onCreated={(name, key) => (setSecret({ title: `Key for ${name}`, value: key }), reload())} />
      )}
      <Async value={list} what="service accounts" retry={reload}>
        {({ serviceAccounts }) =>
          serviceAccounts.length === 0 ? (
            <Empty>No service account yet.</Empty>
          ) : (
            <>
              {serviceAccounts.map((sa) => (
                <Account key={sa.id} sa={sa} onChanged={reload} onSecret={(title, value) => setSecret({ title, value })} />
              ))}
            </>
          )
        }
      </Async>
    </>
  );
}

function CreateAccount({ onCreated }: { onCreated: (name: string, key: string) => void }) {
  const [error, busy, act] = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const name = String(data.get("serviceAccountName"));
    const params: Record<string, unknown> = { serviceAccountName: name, keyType: data.get("keyType"), role: data.get("role") };
    const spend = centsOrNull(data.get("spendCap"));
    const monthly = centsOrNull(data.get("monthlyCap"));
    if (spend !== null) params.spendCapCents = spend;
    if (monthly !== null) params.monthlyCapCents = monthly;
    void act(async () => {
      const created = await op<{ apiKey: { key: string } }>("org.service-account.create", params);
      form.reset();
      onCreated(name, created.apiKey.key);
    });
  };
  return (
    <form class="panel" onSubmit={submit} aria-label="Create a service account">
      <h2>Create a service account</h2>
      <label>
        Name <input name="serviceAccountName" required maxLength={200} />
      </label>
      <label>
        Key type
        <select name="keyType">
          <option value="live">live: calls real providers</option>
          <option value="test">test: simulated, free</option>
        </select>
      </label>
      <label>
        Role
        <select name="role">
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>
      </label>
      <label>
        Lifetime spend cap, USD (optional) <input name="spendCap" type="number" min={0} step="0.01" />
      </label>
      <label>
        Monthly cap, USD (optional) <input name="monthlyCap" type="number" min={0} step="0.01" />
      </label>
      <ActionError error={error} />
      <button type="submit" class="primary" disabled={busy}>
        {busy ? "Creating…" : "Create and show key"}
      </button>
    </form>
  );
}

function Account({
  sa,
  onChanged,
  onSecret,
}: {
  sa: ServiceAccount;
  onChanged: () => void;
  onSecret: (title: string, value: string) => void;
}) {
  const [error, busy, act] = useAction();
  const remove = () => {
    if (!confirm(`Delete service account ${sa.name} and all its keys? Applications using them stop at once.`)) return;
    void act(async () => {
      await op("org.service-account.delete", { serviceAccountId: sa.id });
      onChanged();
    });
  };
  return (
    <section class="panel" aria-label={`Service account ${sa.name}`}>
      <div class="row spread">
        <h2>
          {sa.name} <span class="badge">{sa.role}</span>
        </h2>
        <button type="button" class="danger" disabled={busy} onClick={remove}>
          Delete account
        </button>
      </div>
      <ActionError error={error} />
      {sa.apiKeys.length === 0 ? (
        <Empty>No active key.</Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Keys of {sa.name}</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Type</th>
                <th scope="col">Last use</th>
                <th scope="col">Calls</th>
                <th scope="col">Spent</th>
                <th scope="col">Caps</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {sa.apiKeys.map((k) => (
                <KeyRow key={k.id} k={k} onChanged={onChanged} onSecret={onSecret} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function KeyRow({ k, onChanged, onSecret }: { k: ApiKey; onChanged: () => void; onSecret: (title: string, value: string) => void }) {
  const [error, busy, act] = useAction();
  const [mode, setMode] = useState<"view" | "caps" | "revoke">("view");
  const saveCaps = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    void act(async () => {
      await op("org.api-key.update", {
        keyId: k.id,
        spendCapCents: centsOrNull(data.get("spendCap")),
        monthlyCapCents: centsOrNull(data.get("monthlyCap")),
      });
      setMode("view");
      onChanged();
    });
  };
  const revoke = (e: Event) => {
    e.preventDefault();
    const reason = String(new FormData(e.currentTarget as HTMLFormElement).get("reason") ?? "");
    void act(async () => {
      await op("org.api-key.revoke", { keyId: k.id, ...(reason ? { reason } : {}) });
      onChanged();
    });
  };
  const rotate = () =>
    void act(async () => {
      const r = await op<{ apiKey: { key: string } }>("org.api-key.rotate", { keyId: k.id, gracePeriodSeconds: 3600 });
      onSecret(`New key for ${k.name} (the old one keeps working for one hour)`, r.apiKey.key);
      onChanged();
    });
  return (
    <tr>
      <td>
        <code>{k.keyPrefix}…</code> {k.name}
      </td>
      <td>{k.keyType}</td>
      <td>{when(k.lastUsed)}</td>
      <td>{k.requestCount.toLocaleString()}</td>
      <td>${(k.spentCents / 100).toFixed(4)}</td>
      <td>
        {mode === "caps" ? (
          <form onSubmit={saveCaps} class="inline" aria-label={`Caps of ${k.name}`}>
            <label>
              Lifetime USD{" "}
              <input
                name="spendCap"
                type="number"
                min={0}
                step="0.01"
                defaultValue={k.spendCapCents === null ? "" : String(k.spendCapCents / 100)}
              />
            </label>
            <label>
              Monthly USD{" "}
              <input
                name="monthlyCap"
                type="number"
                min={0}
                step="0.01"
                defaultValue={k.monthlyCapCents === null ? "" : String(k.monthlyCapCents / 100)}
              />
            </label>
            <button type="submit" disabled={busy}>
              Save
            </button>
            <button type="button" onClick={() => setMode("view")}>
              Cancel
            </button>
          </form>
        ) : (
          <>
            lifetime {centsToDollars(k.spendCapCents)}, monthly {centsToDollars(k.monthlyCapCents)}
          </>
        )}
      </td>
      <td>
        {mode === "revoke" ? (
          <form onSubmit={revoke} class="inline" aria-label={`Revoke ${k.name}`}>
            <label>
              Reason <input name="reason" maxLength={1000} placeholder="e.g. leaked in a log" />
            </label>
            <button type="submit" class="danger" disabled={busy}>
              Revoke now
            </button>
            <button type="button" onClick={() => setMode("view")}>
              Cancel
            </button>
          </form>
        ) : (
          <div class="row">
            <button type="button" onClick={() => setMode("caps")}>
              Set caps
            </button>
            <button type="button" disabled={busy} onClick={rotate}>
              Rotate
            </button>
            <button type="button" class="danger" onClick={() => setMode("revoke")}>
              Revoke
            </button>
          </div>
        )}
        <ActionError error={error} />
      </td>
    </tr>
  );
}
