/**
 * Stage 7: reserve the call's maximum cost against the caps that apply: the prompt
 * as the tokenizer counts it plus the most the model may answer (`max_tokens`, else
 * the model's output limit), priced from the catalog. Sandbox calls cost nothing.
 */
import { estimatePromptTokens } from "../lib/token-estimate.ts";
import type { Catalog } from "../providers/catalog/catalog.ts";
import type { Target } from "../providers/target.ts";
import type { Identity } from "../services/identity.ts";
import type { OrgSettings } from "../state/org-settings.ts";
import type { Reservation, SpendLedger } from "../state/spend-ledger.ts";

/** Used when neither the caller nor the catalog says how long an answer may be. */
const FALLBACK_MAX_OUTPUT = 4096;

export interface SpendDeps {
  ledger: SpendLedger;
  settings: OrgSettings;
  catalog: Catalog;
}

export interface CallSize {
  messages?: readonly { content?: unknown }[];
  /** Embeddings and other inputs that are not chat turns. */
  input?: unknown;
  maxTokens?: number | null;
}

function promptTokens(size: CallSize): number {
  if (size.messages) return estimatePromptTokens(size.messages);
  const inputs = typeof size.input === "string" ? [size.input] : Array.isArray(size.input) ? size.input : [];
  return estimatePromptTokens(inputs.map((content) => ({ content: typeof content === "string" ? content : JSON.stringify(content) })));
}

export async function reserveSpend(deps: SpendDeps, identity: Identity, target: Target, size: CallSize): Promise<Reservation> {
  const settings = await deps.settings.get(identity.organization.id);
  const key = identity.kind === "serviceAccount" ? identity.key : null;
  return deps.ledger.reserve(
    {
      keyId: key?.id ?? null,
      orgId: identity.organization.id,
      keyLifetimeCents: key?.spendCapCents ?? null,
      keyMonthlyCents: key?.monthlyCapCents ?? null,
      orgMonthlyCents: settings.monthlyBudgetCents,
    },
    () => {
      const isEmbedding = size.messages === undefined;
      const maxOutput = isEmbedding ? 0 : (size.maxTokens ?? target.catalogModel?.maxOutputTokens ?? FALLBACK_MAX_OUTPUT);
      return deps.catalog.costMicros(target.model, promptTokens(size), maxOutput);
    },
  );
}
