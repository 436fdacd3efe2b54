/**
 * Stage 7: reserve the call's maximum cost against the caps that apply: the prompt
 * plus the most the model may answer (`max_tokens`, else the model's output limit),
 * priced from the catalog. The prompt is first priced at a ceiling that costs almost
 * nothing to compute (one token per byte); only when a cap refuses that is it counted
 * with the tokenizer and tried again, so the tokenizer runs for calls near a cap
 * only, and a reservation is never below the tokenizer's count.
 */
import { ApiError } from "../lib/errors.ts";
import { estimatePromptTokens, promptTokenBound } from "../lib/token-estimate.ts";
import type { Catalog } from "../providers/catalog/catalog.ts";
import type { Target } from "../providers/target.ts";
import type { Identity } from "../domain/identity.ts";
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

type Count = typeof estimatePromptTokens;

function promptTokens(size: CallSize, count: Count): number {
  if (size.messages) return count(size.messages);
  const inputs = typeof size.input === "string" ? [size.input] : Array.isArray(size.input) ? size.input : [];
  return count(inputs.map((content) => ({ content: typeof content === "string" ? content : JSON.stringify(content) })));
}

const CAP_CODES = new Set(["spend_cap_exceeded", "monthly_cap_exceeded"]);

export async function reserveSpend(deps: SpendDeps, identity: Identity, target: Target, size: CallSize): Promise<Reservation> {
  const settings = await deps.settings.get(identity.organization.id);
  const key = identity.kind === "serviceAccount" ? identity.key : null;
  const caps = {
    keyId: key?.id ?? null,
    orgId: identity.organization.id,
    keyLifetimeCents: key?.spendCapCents ?? null,
    keyMonthlyCents: key?.monthlyCapCents ?? null,
    orgMonthlyCents: settings.monthlyBudgetCents,
  };
  const maxOutput = size.messages === undefined ? 0 : (size.maxTokens ?? target.catalogModel?.maxOutputTokens ?? FALLBACK_MAX_OUTPUT);
  const cost = (count: Count) => () => deps.catalog.costMicros(target.model, promptTokens(size, count), maxOutput);
  try {
    return await deps.ledger.reserve(caps, cost(promptTokenBound));
  } catch (err) {
    if (!(err instanceof ApiError) || !CAP_CODES.has(err.code)) throw err;
    return deps.ledger.reserve(caps, cost(estimatePromptTokens));
  }
}
