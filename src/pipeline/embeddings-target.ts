/**
 * Whether a target can answer `/v1/embeddings`, decided before anything is sent: its
 * provider must have an embeddings API, and a model the catalog knows must be an
 * embeddings model (a vendor with embeddings refuses its chat model, after the call was
 * scanned and its rate charged). A model the catalog does not know (a fine-tune, a
 * self-hosted server's) goes through: the gateway cannot tell.
 */
import { ApiError } from "../lib/errors.ts";
import { canEmbed, type EmbeddingsCapable, type ProviderAdapter } from "../providers/adapter.ts";
import type { Catalog } from "../providers/catalog/catalog.ts";
import type { Target } from "../providers/target.ts";
import { servedModel } from "./served-model.ts";

/** The adapter that embeds for `target`, or the 400 `wrong_endpoint` naming why not. */
export function embeddingsAdapter(target: Target, adapter: ProviderAdapter, catalog: Catalog): ProviderAdapter & EmbeddingsCapable {
  if (!target.info.embeddings || adapter.wire !== "chat" || !canEmbed(adapter))
    throw new ApiError(
      400,
      "wrong_endpoint",
      `${target.info.displayName} (${target.providerName}) has no embeddings API; use an embeddings model of another provider.`,
      { param: "model" },
    );
  const served = servedModel(target, catalog);
  if (served !== undefined && !served.capabilities.embeddings) {
    const models = catalog
      .modelsFor(served.provider)
      .filter((m) => m.capabilities.embeddings)
      .map((m) => m.id);
    throw new ApiError(
      400,
      "wrong_endpoint",
      `${target.model.slice(0, 200)} is not an embeddings model${target.catalogModel === undefined ? ` (the deployment runs ${served.id})` : ""}; ` +
        (models.length > 0 ? `use one of ${models.join(", ")}.` : "use an embeddings model."),
      { param: "model", details: { reason: "not_an_embeddings_model", model: target.model.slice(0, 200) } },
    );
  }
  return adapter;
}
