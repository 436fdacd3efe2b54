/** Audit log: newest first, filter by action or actor, page back through older entries. */
import { useState } from "preact/hooks";
import { op } from "../api.ts";
import { ActionError, Empty, Loading, useAction, when } from "../components.tsx";
import type { AuditEntry } from "../types.ts";
import { useEffect } from "preact/hooks";

export function Audit() {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [filter, setFilter] = useState("");
  const [error, busy, act] = useAction();
  const load = (before: string | null) =>
    act(async () => {
      const page = await op<{ entries: AuditEntry[]; nextBefore: string | null }>("org.audit-log.list", {
        limit: 50,
        ...(before ? { before } : {}),
      });
      setEntries((prev) => (before && prev ? [...prev, ...page.entries] : page.entries));
      setNext(page.nextBefore);
    });
  useEffect(() => void load(null), []);
  const f = filter.toLowerCase();
  const shown = (entries ?? []).filter(
    (e) => !f || e.action.toLowerCase().includes(f) || e.actor.toLowerCase().includes(f) || (e.target ?? "").toLowerCase().includes(f),
  );
  return (
    <>
      <h1>Audit log</h1>
      <label>
        Filter by action, actor or target{" "}
        <input
          type="search"
          value={filter}
          onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)}
          placeholder="e.g. api_key.revoke"
        />
      </label>
      <ActionError error={error} />
      {entries === null ? (
        busy ? (
          <Loading what="the audit log" />
        ) : null
      ) : shown.length === 0 ? (
        <Empty>No entries{filter ? " match this filter" : ""}.</Empty>
      ) : (
        <div class="table-wrap">
          <table data-testid="audit">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">Actor</th>
                <th scope="col">Target</th>
                <th scope="col">From</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((e) => (
                <tr key={e.id}>
                  <td>{when(e.createdAt)}</td>
                  <td>{e.action}</td>
                  <td>{e.actor}</td>
                  <td>{e.target ?? "–"}</td>
                  <td>{e.ip ?? "–"}</td>
                  <td>
                    <code class="small">{JSON.stringify(e.details)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next && (
        <button type="button" disabled={busy} onClick={() => void load(next)}>
          {busy ? "Loading…" : "Older entries"}
        </button>
      )}
    </>
  );
}
