/**
 * Tool servers as organization configuration (`mcp.server.*`, admins): a name (the tool
 * namespace), an http(s) URL the egress policy allows (checked here when saved, and
 * again at every connection), credentials sealed like provider keys (static headers, or
 * OAuth client credentials whose token URL passes the same policy), an optional country
 * the geography policy judges, and result-scan overrides. Only header names and the
 * OAuth client id ever leave this module.
 */
import type { Actor, Identity } from "../domain/identity.ts";
import { newId } from "../domain/ids.ts";
import { checkEgressUrl } from "../lib/egress/egress-policy.ts";
import { ApiError, badRequest } from "../lib/errors.ts";
import type { SecretBox } from "../lib/secret-box.ts";
import { isAuthorizedCountry } from "../policy/geography.ts";
import { providerBlocked } from "../policy/provider-authorization.ts";
import { recordAudit } from "../services/audit.ts";
import type { Store } from "../store/store.ts";
import type { McpAuthInfo, McpCredentials, McpScanPolicy, McpServerRecord } from "../domain/mcp-records.ts";

export interface McpConfigDeps {
  store: Store;
  box: SecretBox;
  now(): number;
}

export type McpAuthInput =
  | { type: "none" }
  | { type: "headers"; headers: Record<string, string> }
  | { type: "oauth"; tokenUrl: string; clientId: string; clientSecret: string; scope?: string };

export interface McpServerInput {
  name?: string;
  url?: string;
  country?: string | null;
  auth?: McpAuthInput;
  scan?: Partial<McpScanPolicy>;
}

/** Most servers an organization may configure. */
const MAX_SERVERS = 100;
/** Headers a server's credentials may not set: the transport's own. */
const RESERVED_HEADERS = new Set(["host", "content-type", "content-length", "accept", "mcp-session-id", "mcp-protocol-version"]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const HEADER_VALUE = /^[\x20-\x7e\x80-\xff]*$/;

async function checkedUrl(raw: string, param: string): Promise<string> {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw badRequest(`${param}: must be an http(s) URL`, { param });
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw badRequest(`${param}: must be an http(s) URL`, { param });
  if (u.username || u.password) throw badRequest(`${param}: must not carry credentials; give them as auth`, { param });
  const refused = await checkEgressUrl(u.href);
  if (refused) throw badRequest(`${param}: this address is not allowed: ${refused}`, { param });
  return u.href;
}

/** The sealed and shown halves of the credentials, checked. */
async function credentialsOf(auth: McpAuthInput): Promise<{ info: McpAuthInfo; creds: McpCredentials }> {
  if (auth.type === "none") return { info: { type: "none" }, creds: { type: "none" } };
  if (auth.type === "headers") {
    for (const [name, value] of Object.entries(auth.headers)) {
      if (!HEADER_NAME.test(name) || RESERVED_HEADERS.has(name.toLowerCase()))
        throw badRequest(`params.auth.headers: "${name.slice(0, 100)}" is not a header name a server's credentials may set`, {
          param: "params.auth.headers",
        });
      if (!HEADER_VALUE.test(value))
        throw badRequest("params.auth.headers: values must not contain control characters", { param: "params.auth.headers" });
    }
    return { info: { type: "headers", headerNames: Object.keys(auth.headers) }, creds: { type: "headers", headers: auth.headers } };
  }
  const tokenUrl = await checkedUrl(auth.tokenUrl, "params.auth.tokenUrl");
  const scope = auth.scope ?? null;
  return {
    info: { type: "oauth", tokenUrl, clientId: auth.clientId, scope },
    creds: { type: "oauth", tokenUrl, clientId: auth.clientId, clientSecret: auth.clientSecret, scope },
  };
}

function countryOf(raw: string | null | undefined, name: string): string | null {
  if (raw === undefined || raw === null) return null;
  const country = raw.toUpperCase();
  if (!isAuthorizedCountry(country)) throw providerBlocked(name, country);
  return country;
}

async function assertNameFree(deps: McpConfigDeps, orgId: string, name: string, exceptId?: string): Promise<void> {
  if ((await deps.store.listMcpServers(orgId)).some((s) => s.name === name && s.id !== exceptId))
    throw new ApiError(409, "conflict", `an MCP server named "${name}" already exists in this organization; choose another name`, {
      param: "params.name",
    });
}

/** The server of the caller's organization, or 404 (another organization's is not there either). */
export async function ownServer(deps: McpConfigDeps, identity: Identity, id: string): Promise<McpServerRecord> {
  const found = await deps.store.getMcpServer(id);
  if (!found || found.orgId !== identity.organization.id)
    throw new ApiError(404, "not_found", `No MCP server ${id.slice(0, 100)} in this organization.`, { param: "params.id" });
  return found;
}

export async function createMcpServer(
  deps: McpConfigDeps,
  identity: Identity,
  actor: Actor,
  input: McpServerInput,
): Promise<McpServerRecord> {
  const orgId = identity.organization.id;
  const name = input.name as string;
  if ((await deps.store.listMcpServers(orgId)).length >= MAX_SERVERS)
    throw new ApiError(409, "conflict", `an organization may configure at most ${MAX_SERVERS} MCP servers`);
  await assertNameFree(deps, orgId, name);
  const url = await checkedUrl(input.url as string, "params.url");
  const country = countryOf(input.country, name);
  const { info, creds } = await credentialsOf(input.auth ?? { type: "none" });
  const id = newId("mcp");
  const now = deps.now();
  const rec: McpServerRecord = {
    id,
    orgId,
    name,
    url,
    country,
    auth: info,
    secretCiphertext: creds.type === "none" ? null : deps.box.seal(JSON.stringify(creds), id),
    scan: input.scan ?? {},
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.createMcpServer(rec);
  await recordAudit(deps.store, orgId, actor, "mcp.server.create", id, { name, url: new URL(url).origin, auth: info.type }, now);
  return rec;
}

export async function updateMcpServer(
  deps: McpConfigDeps,
  identity: Identity,
  actor: Actor,
  id: string,
  input: McpServerInput,
): Promise<McpServerRecord> {
  const current = await ownServer(deps, identity, id);
  const name = input.name ?? current.name;
  if (input.name !== undefined) await assertNameFree(deps, current.orgId, name, id);
  const url = input.url !== undefined ? await checkedUrl(input.url, "params.url") : current.url;
  const country = input.country !== undefined ? countryOf(input.country, name) : current.country;
  const sealed = input.auth !== undefined ? await credentialsOf(input.auth) : null;
  const rec: McpServerRecord = {
    ...current,
    name,
    url,
    country,
    ...(sealed
      ? { auth: sealed.info, secretCiphertext: sealed.creds.type === "none" ? null : deps.box.seal(JSON.stringify(sealed.creds), id) }
      : {}),
    scan: input.scan ?? current.scan,
    // Strictly later, so the connection pool sees a new version even within one millisecond.
    updatedAt: Math.max(deps.now(), current.updatedAt + 1),
  };
  await deps.store.updateMcpServer(rec);
  const changed = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined);
  await recordAudit(deps.store, current.orgId, actor, "mcp.server.update", id, { name, changed }, deps.now());
  return rec;
}

export async function deleteMcpServer(deps: McpConfigDeps, identity: Identity, actor: Actor, id: string): Promise<void> {
  const current = await ownServer(deps, identity, id);
  await deps.store.deleteMcpServer(id);
  await recordAudit(deps.store, current.orgId, actor, "mcp.server.delete", id, { name: current.name }, deps.now());
}
