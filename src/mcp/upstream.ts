/**
 * One organization tool server as the gateway's MCP client: the official SDK client over
 * Streamable HTTP, every request through the egress policy (egressFetch, so the address
 * is checked again at connection time, after DNS), carrying the server's stored
 * credentials (static headers, or an OAuth client-credentials token). Its tool list is
 * kept until the server announces `notifications/tools/list_changed`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ToolListChangedNotificationSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { egressFetch } from "../lib/egress/egress-fetch.ts";
import { VERSION } from "../version.ts";
import type { McpCredentials, McpServerRecord } from "../domain/mcp-records.ts";
import { ClientCredentialsToken } from "./oauth-token.ts";

/** Upper bound of pages read when listing, so a server cannot keep the gateway paging forever. */
const MAX_PAGES = 20;

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The egress fetch with the server's credentials added to every request. */
function credentialedFetch(creds: McpCredentials): FetchLike {
  const token = creds.type === "oauth" ? new ClientCredentialsToken(creds) : null;
  return async (url, init = {}) => {
    const headers = new Headers(init.headers);
    if (creds.type === "headers") for (const [name, value] of Object.entries(creds.headers)) headers.set(name, value);
    if (token) headers.set("authorization", `Bearer ${await token.get()}`);
    const { redirect: _ignored, ...rest } = init;
    return egressFetch(url, { ...rest, headers });
  };
}

export class Upstream {
  readonly client: Client;
  private readonly transport: StreamableHTTPClientTransport;
  private tools: Promise<Tool[]> | null = null;
  readonly ready: Promise<void>;

  constructor(
    readonly server: McpServerRecord,
    creds: McpCredentials,
    onToolsChanged: () => void,
  ) {
    this.client = new Client({ name: "gateway", version: VERSION }, { capabilities: {} });
    this.transport = new StreamableHTTPClientTransport(new URL(server.url), { fetch: credentialedFetch(creds) });
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.tools = null;
      onToolsChanged();
    });
    this.ready = this.client.connect(this.transport);
  }

  /** The server's tools (every page), from memory until it says they changed. */
  listTools(options?: RequestOptions): Promise<Tool[]> {
    this.tools ??= this.allPages(async (cursor) => {
      const page = await this.client.listTools(cursor ? { cursor } : {}, options);
      return { items: page.tools, next: page.nextCursor };
    }).catch((err) => {
      this.tools = null;
      throw err;
    });
    return this.tools;
  }

  /** What the server offers: resources and prompts pass through only where it does. */
  offers(what: "resources" | "prompts"): boolean {
    return this.client.getServerCapabilities()?.[what] !== undefined;
  }

  async allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < MAX_PAGES; n++) {
      const { items, next } = await page(cursor);
      out.push(...items);
      if (!next) break;
      cursor = next;
    }
    return out;
  }

  async close(): Promise<void> {
    await this.transport.terminateSession().catch(() => {});
    await this.client.close().catch(() => {});
  }
}
