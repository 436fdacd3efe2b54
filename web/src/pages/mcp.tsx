/** MCP tool servers: the organization's servers behind /mcp (credentials sealed, only header names shown), add and delete; the keys' allow lists. */
import { op } from "../api.ts";
import { ActionError, AddForm, Async, Empty, useAction, useLoad } from "../components.tsx";

interface McpServer {
  id: string;
  name: string;
  url: string;
  country: string | null;
  auth: { type: "none" } | { type: "headers"; headerNames: string[] } | { type: "oauth"; clientId: string; tokenUrl: string };
  scan: { injection?: string; secrets?: string; pii?: string };
}

interface McpAccess {
  subject: string;
  servers: string[];
  tools: string[];
}

const authText = (a: McpServer["auth"]) =>
  a.type === "headers" ? `headers: ${a.headerNames.join(", ")}` : a.type === "oauth" ? `OAuth client ${a.clientId}` : "none";

export function McpServers() {
  const [list, reload] = useLoad(() => op<{ servers: McpServer[] }>("mcp.server.list"));
  const [access] = useLoad(() => op<{ access: McpAccess[] }>("mcp.access.list"));
  const [error, busy, act] = useAction();
  const remove = (s: McpServer) => {
    if (!confirm(`Delete MCP server ${s.name}? Agents lose its tools at once.`)) return;
    void act(async () => {
      await op("mcp.server.delete", { id: s.id });
      reload();
    });
  };
  return (
    <>
      <h1>MCP tool servers</h1>
      <p class="muted">
        Agents connect to <code>/mcp</code> with a gateway key and see these servers' tools as <code>server__tool</code>. Every call is
        scanned both ways and audited; credentials are sealed when added and never shown again.
      </p>
      <AddServer onAdded={reload} />
      <ActionError error={error} />
      <Async value={list} what="MCP servers" retry={reload}>
        {({ servers }) =>
          servers.length === 0 ? (
            <Empty>No MCP server yet.</Empty>
          ) : (
            <div class="table-wrap">
              <table>
                <caption class="sr-only">MCP tool servers</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">URL</th>
                    <th scope="col">Country</th>
                    <th scope="col">Credentials</th>
                    <th scope="col">Result policy</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {servers.map((s) => (
                    <tr key={s.id}>
                      <td>{s.name}</td>
                      <td>
                        <code>{s.url}</code>
                      </td>
                      <td>{s.country ?? "–"}</td>
                      <td>{authText(s.auth)}</td>
                      <td>
                        {Object.entries(s.scan)
                          .map(([k, v]) => `${k}: ${v}`)
                          .join(", ") || "organization's"}
                      </td>
                      <td>
                        <button type="button" class="danger" disabled={busy} onClick={() => remove(s)}>
                          Delete
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Async>
      <h2>Key limits</h2>
      <Async value={access} what="MCP allow lists">
        {({ access: rows }) =>
          rows.length === 0 ? (
            <Empty>No key is limited: every key reaches every server's tools (set limits with mcp.access.set).</Empty>
          ) : (
            <ul class="plain">
              {rows.map((a) => (
                <li key={a.subject}>
                  <code>{a.subject}</code>: servers {a.servers.join(", ")}; tools {a.tools.join(", ")}
                </li>
              ))}
            </ul>
          )
        }
      </Async>
    </>
  );
}

function AddServer({ onAdded }: { onAdded: () => void }) {
  const save = async (data: FormData) => {
    const params: Record<string, unknown> = { name: data.get("name"), url: data.get("url") };
    if (data.get("country")) params.country = data.get("country");
    const header = String(data.get("headerName") ?? "");
    if (header) params.auth = { type: "headers", headers: { [header]: String(data.get("headerValue") ?? "") } };
    await op("mcp.server.create", params);
  };
  return (
    <AddForm title="Add an MCP server" submitLabel="Add server" save={save} onAdded={onAdded}>
      <label>
        Name (the tool prefix){" "}
        <input name="name" required pattern="(?!.*__)[A-Za-z0-9](?:[A-Za-z0-9_\-]{0,38}[A-Za-z0-9\-])?" placeholder="github" />
      </label>
      <label>
        URL <input name="url" type="url" required placeholder="https://…/mcp" />
      </label>
      <label>
        Country (optional) <input name="country" pattern="[A-Za-z]{2}" maxLength={2} placeholder="US" />
      </label>
      <label>
        Credential header (optional) <input name="headerName" placeholder="Authorization" autoComplete="off" />
      </label>
      <label>
        Header value <input name="headerValue" type="password" autoComplete="off" />
      </label>
    </AddForm>
  );
}
