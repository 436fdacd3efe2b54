/**
 * The MCP gateway as the `/mcp` route sees it: it finds (or opens) the caller's session
 * and hands the web-standard request to that session's SDK transport, with the caller
 * attached so every handler knows who is asking. A session id that is unknown, expired
 * or another caller's (another grant's, for a provider calling back) is a 404, as the
 * protocol says for an ended session. One JSON-RPC message per POST: admission charges
 * the rate limit once per HTTP request, so a batch would be up to 100 calls for one.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createGatewayServer } from "./gateway-server.ts";
import type { McpCaller, McpServices } from "./mcp-services.ts";
import { type SessionLimits, SessionTable } from "./session-table.ts";
import { TOOL_GRANT_TTL_MS } from "../services/tool-grant-tokens.ts";
import type { ApiError } from "../lib/errors.ts";
import { type BodyLimits, readBodyText, type RequestTimer } from "../lib/json-body.ts";

const jsonRpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

/** The key or user calling (for a provider calling back, the grant's holder). */
const holderOf = ({ identity }: McpCaller) => (identity.kind === "serviceAccount" ? `key:${identity.key.id}` : `user:${identity.id}`);

/** Who a session belongs to: the key or user, or for a provider calling back, the one grant it was given. */
const ownerOf = (caller: McpCaller) => (caller.grant ? `grant:${caller.grant.id}` : holderOf(caller));

/** The id of a JSON-RPC request (a call, a read), undefined for a notification or a response. */
function requestIdOf(message: unknown): string | number | undefined {
  const one = Array.isArray(message) ? message[0] : message;
  if (one === null || typeof one !== "object" || typeof (one as { method?: unknown }).method !== "string") return undefined;
  const id = (one as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/**
 * A request whose agent goes away is cancelled, as a provider call is when its client
 * goes: the SDK's transport only drops the stream, and the handler (and the tool
 * server's work) would run on to its end. The session is told as if the agent had sent
 * `notifications/cancelled`, which aborts the handler's signal and so the upstream call,
 * whose server is sent the cancellation in turn.
 */
function cancelledWhenGone(request: Request, transport: WebStandardStreamableHTTPServerTransport, message: unknown): void {
  const requestId = requestIdOf(message);
  if (requestId === undefined) return;
  request.signal.addEventListener(
    "abort",
    () =>
      transport.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "the agent went away" } }),
    { once: true },
  );
}

export class McpGateway {
  readonly sessions: SessionTable;

  constructor(
    private readonly svc: McpServices,
    private readonly body: BodyLimits,
    limits?: SessionLimits,
  ) {
    this.sessions = new SessionTable(limits);
  }

  /** Tells the organization's agent sessions that a server's tools changed (they list again). */
  toolsChanged(orgId: string): void {
    for (const s of this.sessions.forOrg(orgId)) void s.server.sendToolListChanged().catch(() => {});
  }

  /** `server`: the one the request came in on, whose own idle timeout is held off while a POST's body comes. */
  async handle(request: Request, caller: McpCaller, server: RequestTimer | null = null): Promise<Response> {
    const owner = ownerOf(caller);
    const authInfo = { token: "", clientId: owner, scopes: [], extra: { caller } };
    const sessionId = request.headers.get("mcp-session-id");
    const session = sessionId === null ? null : this.sessions.get(sessionId, owner);
    if (sessionId !== null && !session)
      return jsonRpcError(404, -32001, "Session not found: it ended, expired, or belongs to another key. Initialize a new one.");
    if (sessionId === null && request.method !== "POST")
      return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required (initialize a session with POST first).");
    const body = request.method === "POST" ? await this.oneMessage(request, server) : undefined;
    if (body instanceof Response) return body;
    const options = { authInfo, ...(body !== undefined ? { parsedBody: body.message } : {}) };
    if (session) {
      if (body !== undefined) cancelledWhenGone(request, session.transport, body.message);
      return session.transport.handleRequest(request, options);
    }
    return this.open(request, owner, caller, options);
  }

  /** A POST's message, read once (within the body's size and time limits); a batch is refused. */
  private async oneMessage(request: Request, server: RequestTimer | null): Promise<{ message: unknown } | Response> {
    let text: string;
    try {
      text = await readBodyText(request, this.body, server);
    } catch (err) {
      const failed = err as ApiError;
      if (failed.status === 413) return jsonRpcError(413, -32000, `Payload Too Large: the body is over ${this.body.maxBytes} bytes.`);
      // A body that stopped arriving: the reader's message, and the connection closed with the answer.
      if (failed.status === 408) return jsonRpcError(408, -32000, `Request Timeout: ${failed.message}`, failed.headers);
      return jsonRpcError(400, -32000, "Bad Request: the request body could not be read.");
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return jsonRpcError(400, -32700, "Parse error: Invalid JSON");
    }
    if (Array.isArray(message) && message.length > 1)
      return jsonRpcError(
        400,
        -32600,
        "Invalid Request: send one JSON-RPC message per request (batches are not accepted; each request is charged to the key's rate limit).",
      );
    return { message };
  }

  /** A new session: kept only once the transport has initialized it. */
  private async open(request: Request, owner: string, caller: McpCaller, options: object): Promise<Response> {
    const server = createGatewayServer(this.svc);
    const orgId = caller.identity.organization.id;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      maxRequestBodySize: this.body.maxBytes,
      // A provider's session with a grant is of no use once the grant expires: idle that long, it is closed.
      onsessioninitialized: (id) =>
        this.sessions.add({ id, owner, holder: holderOf(caller), orgId, server, transport }, caller.grant ? TOOL_GRANT_TTL_MS : undefined),
      onsessionclosed: (id) => this.sessions.remove(id),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, options as never);
    if (transport.sessionId === undefined) await server.close();
    return response;
  }

  /** Shutdown's start: the sessions' notification streams end, so they do not hold the drain (calls in flight finish). */
  endStreams(): void {
    this.sessions.endStandaloneStreams();
  }

  close(): void {
    this.sessions.closeAll();
    this.svc.pool.closeAll();
  }
}
