/**
 * The router's candidate table for one caller: every catalog model of every provider
 * configuration the caller may use and is authorized to call (geography and tier), plus
 * the models self-hosted and custom configurations declare, each with this node's
 * measured latency and error rate and whether its configuration is cooling down.
 * Declared models the catalog does not know are priced at zero (the operator runs
 * them), scored at DECLARED_QUALITY and given DECLARED_LATENCY_MS until measured;
 * GW_CATALOG can describe them properly.
 */
import type { Identity } from "../domain/identity.ts";
import type { ProviderFormat } from "../domain/types.ts";
import type { Catalog } from "../providers/catalog/catalog.ts";
import type { CatalogModel } from "../providers/catalog/models.ts";
import type { Candidate } from "../routing/candidate.ts";
import type { LiveProvider } from "../state/provider-directory.ts";
import type { ProviderHealth } from "../state/provider-health.ts";
import { usableProviders } from "./provider-access.ts";

export const DECLARED_QUALITY = 50;
export const DECLARED_LATENCY_MS = 1500;

export interface CandidateSources {
  catalog: Catalog;
  health: ProviderHealth;
  /** Whether a configuration is at one of its own limits (requests or tokens per minute, requests per day). */
  atLimit?: (providerId: string) => boolean;
}

export interface CandidateFilter {
  /** Only configurations that speak this wire format (the messages endpoint routes among messages-format providers). */
  format?: ProviderFormat;
  /** Only these model ids (a family the caller named), when given. */
  models?: (id: string) => boolean;
}

function declared(id: string, p: LiveProvider): CatalogModel {
  return {
    id,
    provider: p.kind,
    inputPerMTok: 0,
    outputPerMTok: 0,
    contextWindow: 128_000,
    maxOutputTokens: 0,
    capabilities: { tools: true, vision: false, json: true, embeddings: false },
    quality: DECLARED_QUALITY,
    latencyMs: DECLARED_LATENCY_MS,
    created: 0,
  };
}

/**
 * A configuration's models, worked out once per loaded configuration: the directory
 * replaces its entries when a provider changes, which drops them from here too.
 */
const modelLists = new WeakMap<Catalog, WeakMap<LiveProvider, CatalogModel[]>>();

function modelsOf(p: LiveProvider, catalog: Catalog): CatalogModel[] {
  let lists = modelLists.get(catalog);
  if (!lists) modelLists.set(catalog, (lists = new WeakMap()));
  let list = lists.get(p);
  if (list) return list;
  const byId = new Map(catalog.modelsFor(p.kind).map((m) => [m.id, m]));
  for (const id of p.record.models) if (!byId.has(id)) byId.set(id, catalog.model(id) ?? declared(id, p));
  list = [...byId.values()];
  lists.set(p, list);
  return list;
}

export function routeCandidates(
  all: LiveProvider[],
  identity: Identity,
  sources: CandidateSources,
  filter: CandidateFilter = {},
): Candidate[] {
  const out: Candidate[] = [];
  for (const p of usableProviders(all, identity)) {
    if (p.authorization[identity.organization.tier] !== null) continue;
    if (filter.format && p.record.format !== filter.format) continue;
    const providerId = p.record.id;
    const unavailable = sources.health.isCoolingDown(providerId) ? "cooldown" : sources.atLimit?.(providerId) ? "limit" : null;
    for (const m of modelsOf(p, sources.catalog)) {
      // Each configuration's list holds each model once, and configurations are distinct: no pair repeats.
      if (filter.models && !filter.models(m.id)) continue;
      out.push({
        providerId,
        providerName: p.record.name,
        model: m.id,
        inputPerMTok: m.inputPerMTok,
        outputPerMTok: m.outputPerMTok,
        contextWindow: m.contextWindow,
        maxOutputTokens: m.maxOutputTokens,
        capabilities: m.capabilities,
        quality: m.quality,
        latencyMs: sources.health.expectedLatencyMs(providerId, m.id, m.latencyMs),
        errorRate: sources.health.errorRate(providerId, m.id),
        unavailable,
      });
    }
  }
  return out;
}
