/**
 * ETL documents and metrics of an organization: optimize a document, keep its figures
 * (counts and the transformation names; never text), and answer /api/user/etl-metrics
 * from the organization's running totals and its newest documents, so the answer costs
 * the same however many documents there were. Savings are priced at the input price of
 * a catalog model.
 */
import { newId } from "../../domain/ids.ts";
import { ApiError } from "../../lib/errors.ts";
import type { Catalog } from "../../providers/catalog/catalog.ts";
import type { Store } from "../../store/store.ts";
import { type Optimized, optimizeText } from "./optimize.ts";

/** The model whose input price values saved tokens when the caller names none. */
export const DEFAULT_PRICING_MODEL = "gpt-4o";
/** The newest documents the metrics list; the retention prune always keeps these. */
export const RECENT_DOCUMENTS = 10;

export interface OptimizeRequest {
  document: string;
  model?: string;
  maxChunkTokens?: number;
}

export async function optimizeDocument(store: Store, catalog: Catalog, orgId: string, req: OptimizeRequest, now: number) {
  const modelId = req.model ?? DEFAULT_PRICING_MODEL;
  const model = catalog.model(modelId);
  if (!model) throw new ApiError(404, "model_not_found", `The catalog has no price for "${modelId.slice(0, 200)}".`, { param: "model" });
  const r: Optimized = optimizeText(req.document, req.maxChunkTokens === undefined ? {} : { maxChunkTokens: req.maxChunkTokens });
  const saved = Math.max(0, r.originalTokens - r.optimizedTokens);
  // inputPerMTok is dollars per million tokens, so tokens x price is micro-dollars.
  const costSavingsMicros = Math.round(saved * model.inputPerMTok);
  const doc = {
    id: newId("doc"),
    orgId,
    createdAt: now,
    originalTokens: r.originalTokens,
    optimizedTokens: r.optimizedTokens,
    costSavingsMicros,
    transformations: r.transformations,
  };
  await store.recordEtlDocument(doc);
  return {
    documentId: doc.id,
    optimizedText: r.text,
    chunks: r.chunks,
    originalTokens: r.originalTokens,
    optimizedTokens: r.optimizedTokens,
    tokensSaved: saved,
    savingsPercent: percent(saved, r.originalTokens),
    costSavings: costSavingsMicros / 1_000_000,
    pricedAs: model.id,
    transformationsApplied: r.transformations,
  };
}

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 100 : 0);

export async function etlMetrics(store: Store, orgId: string) {
  const [sum, recent] = await Promise.all([store.getEtlTotals(orgId), store.listEtlDocuments(orgId, RECENT_DOCUMENTS)]);
  const saved = Math.max(0, sum.originalTokens - sum.optimizedTokens);
  const top = Object.entries(sum.transformations).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  return {
    totalDocuments: sum.documents,
    totalOriginalTokens: sum.originalTokens,
    totalOptimizedTokens: sum.optimizedTokens,
    totalTokensSaved: saved,
    averageSavingsPercent: percent(saved, sum.originalTokens),
    totalCostSavings: sum.costSavingsMicros / 1_000_000,
    transformations: { normalization: 0, deduplication: 0, compression: 0, chunking: 0, ...sum.transformations },
    // Always a string, as the specification types it: "" until a document had a transformation.
    topTransformation: top && top[1] > 0 ? top[0] : "",
    recentDocuments: recent.map((d) => ({
      documentId: d.id,
      timestamp: new Date(d.createdAt).toISOString(),
      originalTokens: d.originalTokens,
      optimizedTokens: d.optimizedTokens,
      savingsPercent: percent(Math.max(0, d.originalTokens - d.optimizedTokens), d.originalTokens),
      transformationsApplied: d.transformations,
    })),
  };
}
