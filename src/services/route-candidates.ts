/**
 * The router's candidate table for one caller: every catalog model of every provider
 * configuration the caller may use and is authorized to call (geography and tier), plus
 * the models self-hosted and custom configurations declare, each with this node's
 * measured latency and error rate and whether its configuration is cooling down.
 * Declared models the catalog does not know are priced as usage will charge them
 * (catalog.price: their vendor family's ceiling, or zero for self-hosted and custom
 * kinds, whose operator runs them), scored at DECLARED_QUALITY and given
 * DECLARED_LATENCY_MS until measured; GW_CATALOG can describe them properly.
 */
import { type Identity, responsibleUserId } from "../domain/identity.ts";
import type { ProviderFormat } from "../domain/types.ts";
import type { Catalog } from "../providers/catalog/catalog.ts";
import type { CatalogModel } from "../providers/catalog/models.ts";
import type { Candidate } from "../routing/candidate.ts";
import type { LiveProvider } from "../state/provider-directory.ts";
import { expectedLatency, type ProviderHealth } from "../state/provider-health.ts";
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

/**
 * One configuration's share of a caller's table: its models as candidates with the
 * catalog's priors, no error and available. Shared by every call that reads the table,
 * so never changed: a call whose figures differ (measured, failing, cooling down, at a
 * limit) gets its own copy of that candidate.
 */
interface ProviderRow {
  providerId: string;
  candidates: readonly Candidate[];
}

/**
 * The caller's rows, worked out once per loaded provider list and caller shape (who
 * the caller is for key order, the organization's tier, the wire format): the
 * directory replaces an organization's list when a provider changes (the change bus's
 * `providers` event) or its entry expires, which drops every table built from it.
 * What changes from call to call (health, limits) is read per call.
 */
interface ListTables {
  byShape: Map<string, ProviderRow[]>;
  /**
   * The same rows found from the caller's own record without building the shape's
   * text: a key's service account is one object for as long as the key cache holds
   * it. The tier and format are still compared: they are not that record's.
   */
  byCaller: WeakMap<object, { tier: string; format: ProviderFormat | undefined; side: string; rows: ProviderRow[] }[]>;
}

const tables = new WeakMap<Catalog, WeakMap<LiveProvider[], ListTables>>();

/** Tables kept per provider list at most: one per member and format in use; beyond it they are built again. */
const MAX_SHAPES = 256;

/** Shapes remembered per caller record: one per format, and a tier change or two. */
const MAX_FORMATS_PER_CALLER = 8;

function declared(id: string, p: LiveProvider, catalog: Catalog): CatalogModel {
  // The price usage charges: a free-looking fine-tune on a vendor's configuration would win every `cost` ranking at the vendor's dearest rate.
  const price = catalog.price(id, p.kind);
  return {
    id,
    provider: p.kind,
    inputPerMTok: price.inputPerMTok,
    outputPerMTok: price.outputPerMTok,
    contextWindow: 128_000,
    maxOutputTokens: 0,
    capabilities: { tools: true, vision: false, json: true, embeddings: false },
    quality: DECLARED_QUALITY,
    latencyMs: DECLARED_LATENCY_MS,
    created: 0,
  };
}

function modelsOf(p: LiveProvider, catalog: Catalog): CatalogModel[] {
  const byId = new Map(catalog.modelsFor(p.kind).map((m) => [m.id, m]));
  for (const id of p.record.models) if (!byId.has(id)) byId.set(id, catalog.model(id) ?? declared(id, p, catalog));
  return [...byId.values()];
}

/**
 * The cloud platform serves the messages format for its `anthropic.` models (the
 * specification counts them as messages-format providers), and only for those.
 */
const PLATFORM_MESSAGES = /^anthropic\./;

function servedModels(p: LiveProvider, catalog: Catalog, format: ProviderFormat | undefined): CatalogModel[] | null {
  if (!format || p.record.format === format) return modelsOf(p, catalog);
  if (format === "messages" && p.record.format === "bedrock") return modelsOf(p, catalog).filter((m) => PLATFORM_MESSAGES.test(m.id));
  return null;
}

function buildRows(all: LiveProvider[], identity: Identity, catalog: Catalog, format: ProviderFormat | undefined): ProviderRow[] {
  const rows: ProviderRow[] = [];
  for (const p of usableProviders(all, identity)) {
    if (p.authorization[identity.organization.tier] !== null) continue;
    const models = servedModels(p, catalog, format);
    if (models === null) continue;
    const providerId = p.record.id;
    const providerName = p.record.name;
    const candidates = models.map(
      (m): Candidate => ({
        providerId,
        providerName,
        model: m.id,
        inputPerMTok: m.inputPerMTok,
        outputPerMTok: m.outputPerMTok,
        contextWindow: m.contextWindow,
        maxOutputTokens: m.maxOutputTokens,
        capabilities: m.capabilities,
        quality: m.quality,
        latencyMs: m.latencyMs,
        errorRate: 0,
        unavailable: null,
      }),
    );
    rows.push({ providerId, candidates });
  }
  return rows;
}

function rowsFor(all: LiveProvider[], identity: Identity, catalog: Catalog, format: ProviderFormat | undefined): ProviderRow[] {
  let byList = tables.get(catalog);
  if (!byList) tables.set(catalog, (byList = new WeakMap()));
  let listTables = byList.get(all);
  if (!listTables) byList.set(all, (listTables = { byShape: new Map(), byCaller: new WeakMap() }));
  const caller = identity.kind === "serviceAccount" ? identity.serviceAccount : identity.user;
  const tier = identity.organization.tier;
  const side = identity.providerSide ?? "";
  let seen = listTables.byCaller.get(caller);
  if (seen) for (const s of seen) if (s.tier === tier && s.format === format && s.side === side) return s.rows;
  // Everything the rows depend on besides the list: usableProviders reads the kind, the responsible user and the side.
  const shape = `${identity.kind}\u0000${responsibleUserId(identity)}\u0000${side}\u0000${tier}\u0000${format ?? ""}`;
  let rows = listTables.byShape.get(shape);
  if (!rows) {
    if (listTables.byShape.size >= MAX_SHAPES) listTables.byShape.clear();
    rows = buildRows(all, identity, catalog, format);
    listTables.byShape.set(shape, rows);
  }
  if (!seen) listTables.byCaller.set(caller, (seen = []));
  if (seen.length < MAX_FORMATS_PER_CALLER) seen.push({ tier, format, side, rows });
  return rows;
}

export function routeCandidates(
  all: LiveProvider[],
  identity: Identity,
  sources: CandidateSources,
  filter: CandidateFilter = {},
): Candidate[] {
  const out: Candidate[] = [];
  for (const row of rowsFor(all, identity, sources.catalog, filter.format)) {
    const { providerId } = row;
    const unavailable = sources.health.isCoolingDown(providerId) ? "cooldown" : sources.atLimit?.(providerId) ? "limit" : null;
    const measured = sources.health.modelsOf(providerId);
    for (const kept of row.candidates) {
      // Each configuration's list holds each model once, and configurations are distinct: no pair repeats.
      if (filter.models && !filter.models(kept.model)) continue;
      const stats = measured?.get(kept.model);
      // Most models of a table have never been called here: the kept candidate is already this call's.
      if (stats === undefined && unavailable === null) out.push(kept);
      else
        out.push({
          ...kept,
          latencyMs: expectedLatency(stats, kept.latencyMs),
          errorRate: stats?.errorRate ?? 0,
          unavailable,
        });
    }
  }
  return out;
}
