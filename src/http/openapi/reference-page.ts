/**
 * `/docs`: the interface description as one readable HTML page, rendered on the server
 * from the OpenAPI document. No script and no outside asset, so it works offline from
 * the binary and under a CSP that allows nothing but inline styles of its own.
 */

type Json = Record<string, any>;

const escape = (s: unknown) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--bg:#fff;--card:#f6f8fa;--line:#d0d7de;--get:#0969da;--post:#1a7f37}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8d96a0;--bg:#0d1117;--card:#161b22;--line:#30363d;--get:#4493f8;--post:#3fb950}}
body{font:15px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:980px;padding:24px}
h1{margin:0 0 4px}h2{margin-top:32px;border-bottom:1px solid var(--line);padding-bottom:4px}
.muted{color:var(--muted)}nav a{margin-right:12px}
details{background:var(--card);border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:8px 12px}
summary{cursor:pointer}code,pre{font:13px/1.4 ui-monospace,monospace}pre{overflow:auto;max-height:420px}
.m{display:inline-block;min-width:56px;font-weight:600}.m.get{color:var(--get)}.m.post{color:var(--post)}
table{border-collapse:collapse}td,th{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}`;

function operationBlock(method: string, path: string, op: Json): string {
  const auth = (op.security as Json[] | undefined)?.flatMap((s) => Object.keys(s)).join(", ") || "none";
  const params = (op.parameters as Json[] | undefined) ?? [];
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const responses = Object.entries((op.responses as Json) ?? {})
    .map(([status, r]) => `<tr><td>${escape(status)}</td><td>${escape((r as Json).description)}</td></tr>`)
    .join("");
  return `<details id="${escape(op.operationId)}"><summary><span class="m ${escape(method)}">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code> — ${escape(op.summary)}</summary>
${
  op.description
    ? `<p>${escape(op.description)
        .replace(/\n- /g, "<br>• ")
        .replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`
    : ""
}
<p><b>Credentials:</b> ${escape(auth)}</p>
${params.length ? `<p><b>Parameters:</b> ${params.map((p) => `<code>${escape(p.name)}</code> (${escape(p.in)})`).join(", ")}</p>` : ""}
${body ? `<p><b>Body</b> (JSON Schema):</p><pre>${escape(JSON.stringify(body, null, 2))}</pre>` : ""}
<table><tr><th>status</th><th>meaning</th></tr>${responses}</table></details>`;
}

export function referencePage(doc: Json): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(methods as Json)) {
      const tag = (op as Json).tags?.[0] ?? "other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationBlock(method, path, op as Json)]);
    }
  }
  const sections = [...byTag].map(([tag, blocks]) => `<h2 id="tag-${escape(tag)}">${escape(tag)}</h2>${blocks.join("\n")}`).join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(doc.info.title)} API ${escape(doc.info.version)}</title><style>${STYLE}</style></head><body>
<h1>${escape(doc.info.title)} API</h1><p class="muted">Version ${escape(doc.info.version)} · OpenAPI ${escape(doc.openapi)} · the machine-readable document is at <a href="/openapi.json">/openapi.json</a></p>
<p>${escape(doc.info.description)}</p>
<nav>${[...byTag.keys()].map((t) => `<a href="#tag-${escape(t)}">${escape(t)}</a>`).join("")}</nav>
${sections}</body></html>`;
}

/** The page's own CSP: its inline style and nothing else. */
export const REFERENCE_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
