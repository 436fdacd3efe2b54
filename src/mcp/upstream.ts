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
import { HOP_HEADER, HOP_TOKEN } from "../providers/hop.ts";
import { VERSION } from "../version.ts";
import type { McpCredentials, McpServerRecord } from "../domain/mcp-records.ts";
import { ClientCredentialsToken } from "./oauth-token.ts";

/** How long past the longest a call may take its response stream is kept. */
const STREAM_GRACE_MS = 5_000;

/** OAuth tokens a connection cuts from what its server says, besides its stored credentials. */
const RECENT_TOKENS = 2;

/** Upper bound of pages read when listing, so a server cannot keep the gateway paging forever. */
const MAX_PAGES = 20;

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The values of stored credentials, for cutting out of what a server says back (at least 8 characters, to cut nothing else). */
export function credentialValues(creds: McpCredentials): string[] {
  const values = creds.type === "headers" ? Object.values(creds.headers) : creds.type === "oauth" ? [creds.clientSecret] : [];
  // `Bearer abc`: the token alone is cut too, however the server quotes it.
  return values.flatMap((v) => [v, v.replace(/^\S+\s+/, "")]).filter((v) => v.length >= 8);
}

/** `text` with every credential value replaced, longest first. */
export function cutCredentials(text: string, values: string[]): string {
  return [...values].sort((a, b) => b.length - a.length).reduce((t, v) => t.replaceAll(v, "[credential]"), text);
}

/** Thrown into a response's body past the byte limit. */
export class ResponseTooLarge extends Error {
  override name = "ResponseTooLarge";
}

/**
 * `res` whose body fails once more than `max` bytes have come: the SDK reads a result
 * (or an event it has not seen the end of) whole, so a server could otherwise fill the
 * node's memory. `over` is told, since a failed event stream leaves the request waiting.
 */
function capped(res: Response, max: number, over: () => void): Response {
  // A null-body status (204, 304) cannot be rebuilt with a body, and has nothing to count.
  if (!res.body || [101, 204, 205, 304].includes(res.status)) return res;
  let seen = 0;
  const body = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        seen += chunk.byteLength;
        if (seen <= max) return out.enqueue(chunk);
        over();
        out.error(new ResponseTooLarge(`over ${max} bytes`));
      },
    }),
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/**
 * `init` with a deadline when it asks for an answer: a request (a POST with a body) or
 * the resumption of one's stream (`last-event-id`). The SDK gives up on a request at its
 * timeout or a cancellation but leaves its response stream open, and a server that never
 * answers keeps it alive (the SDK's own keep-alive comments): one socket per call, for
 * as long as the connection lives. No call may take longer than `ms`, so its stream is
 * closed a little after (the call's own bound ends it first, in its own words). The
 * notification stream (a GET without `last-event-id`) lives on.
 */
function boundedInTime(init: RequestInit | undefined, ms: number): RequestInit | undefined {
  const asks = init?.method === "POST" || new Headers(init?.headers).has("last-event-id");
  if (!init || !asks) return init;
  const deadline = AbortSignal.timeout(ms + STREAM_GRACE_MS);
  return { ...init, signal: init.signal ? AbortSignal.any([init.signal, deadline]) : deadline };
}

/** The egress fetch with the server's credentials added to every request (an OAuth token, once had, is told to `seen`). */
function credentialedFetch(creds: McpCredentials, seen: (token: string) => void): FetchLike {
  const token = creds.type === "oauth" ? new ClientCredentialsToken(creds) : null;
  return async (url, init = {}) => {
    const headers = new Headers(init.headers);
    if (creds.type === "headers") for (const [name, value] of Object.entries(creds.headers)) headers.set(name, value);
    if (token) {
      const value = await token.get();
      seen(value);
      headers.set("authorization", `Bearer ${value}`);
    }
    // The loop guard, as on a provider call (and after the stored headers, which cannot replace it): a server
    // configured at the gateway's own /mcp is refused at the first hop.
    headers.set(HOP_HEADER, HOP_TOKEN);
    const { redirect: _ignored, ...rest } = init;
    return egressFetch(url, { ...rest, headers });
  };
}

export class Upstream {
  readonly client: Client;
  private readonly transport: StreamableHTTPClientTransport;
  private tools: Promise<Tool[]> | null = null;
  readonly ready: Promise<void>;
  /** The credential values this connection sends, cut from the server's error messages. */
  private secrets: string[];
  /** Closed for sending more than a response may hold: the pool opens a new connection next time. */
  broken = false;

  constructor(
    readonly server: McpServerRecord,
    creds: McpCredentials,
    onToolsChanged: () => void,
    /** The most one response may carry (GW_MAX_BODY_BYTES, as for what agents send), and one listing of every page. */
    private readonly maxResponseBytes: number,
    /** The longest a request's response stream is kept (GW_UPSTREAM_TIMEOUT_S, the longest a call may take). */
    maxStreamMs = 300_000,
  ) {
    this.client = new Client({ name: "gateway", version: VERSION }, { capabilities: {} });
    const stored = [...new Set(credentialValues(creds))];
    this.secrets = stored;
    // The OAuth tokens sent lately: the one in use and the one before (a reply in flight may quote it). Not every
    // token ever had, which an endpoint giving short-lived ones would grow by one per request.
    let tokens: string[] = [];
    const seen = (token: string) => {
      if (tokens.includes(token)) return;
      tokens = [token, ...tokens].slice(0, RECENT_TOKENS);
      this.secrets = [...stored, ...tokens];
    };
    const fetchCredentialed = credentialedFetch(creds, seen);
    // Past the limit the connection is closed, which fails its pending requests at once.
    const over = () => {
      this.broken = true;
      void this.client.close().catch(() => {});
    };
    const fetchCapped: FetchLike = async (url, init) =>
      capped(await fetchCredentialed(url, boundedInTime(init, maxStreamMs)), maxResponseBytes, over);
    this.transport = new StreamableHTTPClientTransport(new URL(server.url), { fetch: fetchCapped });
    // Told once per listing: until someone lists again there is nothing newer to tell, so a
    // server sending the notification in a loop cannot make the gateway tell every session each time.
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (this.tools === null) return;
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

  /** `text` (a message of the server's) without the credentials this connection sent it. */
  withoutCredentials(text: string): string {
    return cutCredentials(text, this.secrets);
  }

  /** What the server offers: resources and prompts pass through only where it does. */
  offers(what: "resources" | "prompts"): boolean {
    return this.client.getServerCapabilities()?.[what] !== undefined;
  }

  /**
   * Every page of a listing, up to MAX_PAGES. The listing as a whole is bounded as one
   * response is: each page is, and a server paging on would otherwise have the gateway
   * keep (and send agents) MAX_PAGES times as much.
   */
  async allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    let bytes = 0;
    for (let n = 0; n < MAX_PAGES; n++) {
      const { items, next } = await page(cursor);
      bytes += Buffer.byteLength(JSON.stringify(items));
      if (bytes > this.maxResponseBytes) throw new ResponseTooLarge(`a listing over ${this.maxResponseBytes} bytes`);
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
