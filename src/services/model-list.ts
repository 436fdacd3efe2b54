/**
 * The caller's model list: for every provider they may use, the provider's own list
 * (fetched, cached 10 minutes, failures tolerated) and the catalog's entries for that
 * kind, and any models a self-hosted or custom provider declares.
 */
import type { Logger } from "../lib/log.ts";
import { canListModels } from "../providers/adapter.ts";
import type { Catalog } from "../providers/catalog/catalog.ts";
import { adapterFor } from "../providers/registry.ts";
import { sendUpstream } from "../providers/upstream.ts";
import { usableProviders } from "../pipeline/resolve-provider.ts";
import type { LiveProvider, ProviderDirectory } from "../state/provider-directory.ts";
import type { Identity } from "./identity.ts";

export interface ListedModel {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
}

const FRESH_MS = 10 * 60_000;
const RETRY_AFTER_FAILURE_MS = 60_000;
const FETCH_TIMEOUT_MS = 5_000;

export class ModelList {
  private readonly remote = new Map<string, { until: number; ids: Promise<string[]> }>();

  constructor(
    private readonly catalog: Catalog,
    private readonly directory: ProviderDirectory,
    private readonly log: Logger,
    /** Providers a caller may not use (geography, policy) are left out. */
    private readonly allowed: (p: LiveProvider, identity: Identity) => boolean = () => true,
  ) {}

  async list(identity: Identity): Promise<ListedModel[]> {
    const providers = usableProviders(await this.directory.get(identity.organization.id), identity).filter((p) => this.allowed(p, identity));
    const out = new Map<string, ListedModel>();
    const lists = await Promise.all(providers.map((p) => this.remoteIds(p)));
    providers.forEach((p, i) => {
      const owner = p.record.name;
      for (const m of this.catalog.modelsFor(p.kind)) if (!out.has(m.id)) out.set(m.id, { id: m.id, object: "model", created: m.created, owned_by: owner });
      for (const id of [...p.record.models, ...(lists[i] ?? [])]) if (!out.has(id)) out.set(id, { id, object: "model", created: Math.floor(p.record.createdAt / 1000), owned_by: owner });
    });
    return [...out.values()];
  }

  /** Forgets cached lists (a provider changed). */
  forget(configId: string): void {
    this.remote.delete(configId);
  }

  private remoteIds(p: LiveProvider): Promise<string[]> {
    const now = Date.now();
    const cached = this.remote.get(p.record.id);
    if (cached && cached.until > now) return cached.ids;
    const ids = this.fetchIds(p).then(
      (list) => list,
      (err) => {
        this.log.warn("provider model list unavailable", { provider: p.record.name, error: String((err as Error)?.message ?? err) });
        this.remote.set(p.record.id, { until: Date.now() + RETRY_AFTER_FAILURE_MS, ids: Promise.resolve([]) });
        return [] as string[];
      },
    );
    this.remote.set(p.record.id, { until: now + FRESH_MS, ids });
    return ids;
  }

  private async fetchIds(p: LiveProvider): Promise<string[]> {
    const info = this.catalog.kind(p.kind);
    const adapter = adapterFor(p.record.format);
    const baseUrl = p.record.baseUrl ?? info.defaultBaseUrl;
    if (!canListModels(adapter) || !baseUrl) return [];
    const target = { kind: p.kind, info, format: p.record.format, country: p.record.country, providerName: p.record.name, configId: p.record.id, baseUrl, credentials: p.credentials, settings: p.record.settings, model: "", catalogModel: undefined };
    const up = await sendUpstream(adapter.modelsRequest(target), { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), timeoutMs: FETCH_TIMEOUT_MS, providerName: p.record.name });
    try {
      if (!up.response.ok) throw new Error(`HTTP ${up.response.status}`);
      return adapter.parseModels(await up.response.json());
    } finally {
      up.done();
    }
  }
}
