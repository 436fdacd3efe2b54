/**
 * The caller's model list: for every provider they may use, the provider's own list
 * (fetched, every page of it up to a bound, cached 10 minutes, failures tolerated) and the catalog's entries for that
 * kind, and any models a self-hosted or custom provider declares. A cached list
 * belongs to one version of one configuration: `forget` drops an organization's
 * lists when its providers change (a new address or key answers with another list),
 * and a list fetched before the configuration's last update is never served, which
 * also covers an update made on another node once this node's directory reloads.
 */
import { readTextUpTo } from "../lib/egress/bounded-body.ts";
import type { Logger } from "../lib/log.ts";
import { canListModels, type UpstreamRequest } from "../providers/adapter.ts";
import type { Catalog } from "../providers/catalog/catalog.ts";
import type { ProviderKind } from "../providers/catalog/provider-kinds.ts";
import { PLATFORM_MODEL_ID } from "../providers/bedrock/model-ids.ts";
import { adapterFor } from "../providers/registry.ts";
import { targetFor } from "../providers/target.ts";
import { sendUpstream } from "../providers/upstream.ts";
import { usableProviders } from "./provider-access.ts";
import type { LiveProvider, ProviderDirectory } from "../state/provider-directory.ts";
import type { Identity } from "../domain/identity.ts";

export interface ListedModel {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
}

const FRESH_MS = 10 * 60_000;
const RETRY_AFTER_FAILURE_MS = 60_000;
const FETCH_TIMEOUT_MS = 5_000;
/**
 * A provider's model list is read up to this much, all its pages together (the largest
 * public lists, with every model's metadata, are under 2 MiB): the address may be a member's own server, and a
 * list read whole could fill the node's memory in the five seconds it is given.
 */
export const MAX_MODEL_LIST_BYTES = 8 * 1024 * 1024;
/** A list the provider pages (the messages vendor's, 1,000 a page) is followed this many pages at most. */
export const MAX_MODEL_LIST_PAGES = 10;

interface CachedList {
  until: number;
  /** The configuration version the list was fetched for. */
  updatedAt: number;
  ids: Promise<string[]>;
}

/** Providers the caller's tier may not call, or in an unauthorized country, are left out (the verdict the directory precomputed). */
const authorized = (p: LiveProvider, identity: Identity) => p.authorization[identity.organization.tier] === null;

export class ModelList {
  /** Organization id -> provider configuration id -> its fetched list. */
  private readonly remote = new Map<string, Map<string, CachedList>>();

  constructor(
    private readonly catalog: Catalog,
    private readonly directory: ProviderDirectory,
    private readonly log: Logger,
    private readonly allowed: (p: LiveProvider, identity: Identity) => boolean = authorized,
    private readonly now: () => number = Date.now,
  ) {}

  async list(identity: Identity): Promise<ListedModel[]> {
    const providers = usableProviders(await this.directory.get(identity.organization.id), identity).filter((p) =>
      this.allowed(p, identity),
    );
    const out = new Map<string, ListedModel>();
    // A sandbox (test) key never causes a provider call, so its list is the catalog's and the declared models only.
    const sandbox = identity.kind === "serviceAccount" && identity.key.keyType === "test";
    const lists = sandbox ? [] : await Promise.all(providers.map((p) => this.remoteIds(p)));
    // Read once per listed id of every provider's own list (thousands, at a member's own server): a set, not a scan of each configuration.
    const declared = new Set(providers.flatMap((p) => p.record.models));
    const kinds = new Set(providers.map((p) => p.kind));
    providers.forEach((p, i) => {
      const owner = p.record.name;
      const created = Math.floor(p.record.createdAt / 1000);
      for (const m of this.catalog.modelsFor(p.kind))
        if (!out.has(m.id)) out.set(m.id, { id: m.id, object: "model", created: m.created, owned_by: owner });
      for (const id of p.record.models) if (!out.has(id)) out.set(id, { id, object: "model", created, owned_by: owner });
      for (const listedId of lists[i] ?? []) {
        const id = this.callableId(listedId, p, declared, kinds);
        if (!out.has(id)) out.set(id, { id, object: "model", created, owned_by: owner });
      }
    });
    return [...out.values()];
  }

  /**
   * The id that calls a model from a provider's own list: as listed when a call naming it
   * bare resolves to a configuration the caller may use (as resolve-provider.ts reads a
   * name: the cloud platform's ids, the catalog, declared models, the vendors' naming),
   * else `<configuration>/<id>`. An id no call could resolve as listed (a self-hosted
   * server's undeclared `llama3:8b`, a catalog model of a kind nobody configured) was
   * listed, then 404 (or 400) when called.
   */
  private callableId(id: string, p: LiveProvider, declared: Set<string>, kinds: Set<ProviderKind>): string {
    return !id.includes("/") && this.reachedBare(id, declared, kinds) ? id : `${p.record.name}/${id}`;
  }

  /** Whether a call naming the id bare resolves to a configuration: one declaring it, or one of the kind its name reads as. */
  private reachedBare(id: string, declared: Set<string>, kinds: Set<ProviderKind>): boolean {
    const served = (kind: ProviderKind | undefined) => kind !== undefined && kinds.has(kind);
    if (PLATFORM_MODEL_ID.test(id)) return served("bedrock");
    const listed = this.catalog.model(id);
    if (listed) return served(listed.provider);
    return declared.has(id) || served(this.catalog.vendorFor(id));
  }

  /** Forgets an organization's cached lists: one of its providers was created, changed or deleted. */
  forget(orgId: string): void {
    this.remote.delete(orgId);
  }

  /** Forgets every organization's lists: changes may have been missed (see StateChange "all"). */
  forgetAll(): void {
    this.remote.clear();
  }

  private remoteIds(p: LiveProvider): Promise<string[]> {
    const now = this.now();
    let lists = this.remote.get(p.record.orgId);
    const cached = lists?.get(p.record.id);
    if (cached && cached.until > now && cached.updatedAt === p.record.updatedAt) return cached.ids;
    if (!lists) {
      lists = new Map();
      this.remote.set(p.record.orgId, lists);
    }
    const entry: CachedList = { until: now + FRESH_MS, updatedAt: p.record.updatedAt, ids: Promise.resolve([]) };
    entry.ids = this.fetchIds(p).catch((err) => {
      this.log.warn("provider model list unavailable", { provider: p.record.name, error: String((err as Error)?.message ?? err) });
      // Asked again sooner than a good list; unless the provider changed meanwhile and this entry is gone.
      entry.until = Math.min(entry.until, this.now() + RETRY_AFTER_FAILURE_MS);
      return [] as string[];
    });
    lists.set(p.record.id, entry);
    return entry.ids;
  }

  /**
   * Asks the provider for its model list now, bypassing the cache (the dashboard's "test
   * connection"): the ids, or null when this kind has no list to ask; throws when it fails.
   */
  async probe(p: LiveProvider): Promise<string[] | null> {
    const baseUrl = p.record.baseUrl ?? this.catalog.kind(p.kind).defaultBaseUrl;
    if (!canListModels(adapterFor(p.record.format)) || !baseUrl) return null;
    return this.fetchIds(p);
  }

  /**
   * The provider's list, page after page where it pages it (the messages vendor), at most
   * MAX_MODEL_LIST_PAGES pages, all within one deadline and one byte bound.
   */
  private async fetchIds(p: LiveProvider): Promise<string[]> {
    const info = this.catalog.kind(p.kind);
    const adapter = adapterFor(p.record.format);
    const baseUrl = p.record.baseUrl ?? info.defaultBaseUrl;
    if (!canListModels(adapter) || !baseUrl) return [];
    const target = targetFor({ info, baseUrl, credentials: p.credentials, model: "", catalogModel: undefined, config: p.record });
    const caller = { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) };
    const ids: string[] = [];
    let bytesLeft = MAX_MODEL_LIST_BYTES;
    let request: UpstreamRequest | null = adapter.modelsRequest(target);
    for (let page = 0; request && page < MAX_MODEL_LIST_PAGES; page++) {
      const up = await sendUpstream(request, { caller, timeoutMs: FETCH_TIMEOUT_MS, providerName: p.record.name });
      try {
        if (!up.response.ok) throw new Error(`HTTP ${up.response.status}`);
        const text = await readTextUpTo(up.response, bytesLeft);
        bytesLeft -= Buffer.byteLength(text);
        const body: unknown = JSON.parse(text);
        ids.push(...adapter.parseModels(body));
        request = adapter.nextModelsRequest?.(target, body) ?? null;
      } finally {
        up.done();
      }
    }
    return ids;
  }
}
