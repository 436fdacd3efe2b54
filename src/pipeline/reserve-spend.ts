/**
 * Stage 7: reserve the call's maximum cost against the caps that apply: the prompt
 * plus the most the model may answer (`max_tokens`, else the model's output limit),
 * priced from the catalog. The prompt is first priced at a ceiling that costs almost
 * nothing to compute (one token per byte); only when a cap refuses that is it counted
 * with the tokenizer and tried again, so the tokenizer runs for calls near a cap
 * only, and a reservation is never below the tokenizer's count.
 */
import { ApiError } from "../lib/errors.ts";
import type { MaybePromise } from "../lib/maybe-promise.ts";
import { estimatePromptTokens, promptTokenBound } from "../lib/token-estimate.ts";
import type { Catalog } from "../providers/catalog/catalog.ts";
import type { Target } from "../providers/target.ts";
import type { Identity } from "../domain/identity.ts";
import { spendAccountOf } from "../domain/api-key.ts";
import type { OrgSettings } from "../state/org-settings.ts";
import type { OrgPreferences } from "../domain/types.ts";
import type { Caps, Reservation, SpendLedger } from "../state/spend-ledger.ts";
import type { DeferredCharge } from "../state/rate-charge.ts";

/** Used when neither the caller nor the catalog says how long an answer may be. */
const FALLBACK_MAX_OUTPUT = 4096;

export interface SpendDeps {
  ledger: SpendLedger;
  settings: OrgSettings;
  catalog: Catalog;
  /**
   * Hears the organization of each call a cap refused while the organization has a monthly
   * budget: the alert check then looks at that budget soon (services/alerts/alert-checker.ts).
   */
  onBudgetRefusal?: (orgId: string) => void;
}

export interface CallSize {
  messages?: readonly { content?: unknown }[];
  /** Embeddings and other inputs that are not chat turns. */
  input?: unknown;
  /** The most each answer may write; unset, the model's catalog maximum. */
  maxTokens?: number | null;
  /** Answers asked for at once (chat's `n`): each may write up to `maxTokens` and each is billed. */
  choices?: number;
  /**
   * The prompt the provider reads beyond what is sent (a stored conversation it
   * continues), in tokens: the reservation prices the prompt at no less.
   */
  storedPromptTokens?: number;
  /** What the provider may charge beside the tokens (built-in tool calls), reserved on top, in micro-dollars. */
  feeMicros?: number;
  /**
   * The most the provider can charge beside the tokens under the request's own limits (a
   * messages call's web search `max_uses`), in micro-dollars: a larger fee it reports is
   * charged this much (provider-answer.ts, `keepCounts`). Unset: the request sets no bound.
   */
  maxFeeMicros?: number;
  /** The service tier the caller asked for (`service_tier`): reserved at its price when that is the higher one. */
  serviceTier?: unknown;
}

type Count = typeof estimatePromptTokens;

function promptTokens(size: CallSize, count: Count): number {
  if (size.messages) return count(size.messages);
  const inputs = typeof size.input === "string" ? [size.input] : Array.isArray(size.input) ? size.input : [];
  // Embeddings token ids are one token each, counted, not tokenized: the digits of their JSON (and a
  // message's framing per id of a flat array) made 3 to 6 times the count, and took the tokenizer a
  // third of a second per 200,000 ids.
  if (inputs.length > 0 && inputs.every(isTokenIds)) return inputs.reduce((n: number, ids) => n + (Array.isArray(ids) ? ids.length : 1), 0);
  return count(inputs.map((content) => ({ content: typeof content === "string" ? content : JSON.stringify(content) })));
}

/** One token id, or an array of them (one embeddings input). */
const isTokenIds = (input: unknown): boolean =>
  typeof input === "number" || (Array.isArray(input) && input.every((id) => typeof id === "number"));

/** The call's prompt as the tokenizer counts it: what it costs when the provider never said. */
export function estimatedPromptTokens(size: CallSize): number {
  return promptTokens(size, estimatePromptTokens);
}

/**
 * Whether the caller's model calls reserve against a cap (the key's own, or the
 * organization's budget; settings not in memory yet count as yes): whether the request's
 * rate-limit charge should wait to travel in the reservation (rate-charge.ts).
 */
export function mayReserve(settings: OrgSettings, identity: Identity): boolean {
  const prefs = settings.get(identity.organization.id);
  if (prefs instanceof Promise) return true;
  const caps = capsOf(identity, prefs);
  return caps.keyLifetimeCents !== null || caps.keyMonthlyCents !== null || caps.orgMonthlyCents !== null;
}

/** The caps a caller's calls reserve against: the key's own and the organization's budget. */
function capsOf(identity: Identity, settings: OrgPreferences): Caps {
  const key = identity.kind === "serviceAccount" ? identity.key : null;
  return {
    // A rotated key's line shares one set of totals: the successor inherits the spend so far.
    keyId: key ? spendAccountOf(key) : null,
    orgId: identity.organization.id,
    keyLifetimeCents: key?.spendCapCents ?? null,
    keyMonthlyCents: key?.monthlyCapCents ?? null,
    orgMonthlyCents: settings.monthlyBudgetCents,
  };
}

const CAP_CODES = new Set(["spend_cap_exceeded", "monthly_cap_exceeded"]);

/** A spend cap's refusal of a reservation: the caller's budget, not the provider's failure. */
export const isCapError = (err: unknown): err is ApiError => err instanceof ApiError && CAP_CODES.has(err.code);

/**
 * A cap stays spent until an operator raises it or the month turns, so retrying is
 * pointless: the official SDKs retry every 429 unless `x-should-retry: false` says
 * otherwise (and no Retry-After invites them back).
 */
function notRetryable(err: ApiError): ApiError {
  return new ApiError(err.status, err.code, err.message, {
    details: err.details,
    param: err.param,
    headers: { ...err.headers, "x-should-retry": "false" },
  });
}

/**
 * Reserves the call's maximum cost against the caps that apply. `onEstimate` hears the
 * amount reserved (for the attempt's span); an uncapped call computes none. `charge`,
 * the request's rate-limit charge when it is still to be taken, may travel with the
 * reservation (rate-charge.ts); the caller decides it in any case. Answers at once when
 * nothing has to be waited for (the settings in memory, an uncapped call in memory).
 */
export function reserveSpend(
  deps: SpendDeps,
  identity: Identity,
  target: Target,
  size: CallSize,
  onEstimate?: (micros: number) => void,
  charge?: DeferredCharge,
): MaybePromise<Reservation> {
  const settings = deps.settings.get(identity.organization.id);
  // In memory (the usual call): no closure is built.
  if (settings instanceof Promise) return reserveOnceLoaded(deps, settings, identity, target, size, onEstimate, charge);
  return reserveUnder(deps, settings, identity, target, size, onEstimate, charge);
}

async function reserveOnceLoaded(
  deps: SpendDeps,
  loading: Promise<OrgPreferences>,
  identity: Identity,
  target: Target,
  size: CallSize,
  onEstimate: ((micros: number) => void) | undefined,
  charge: DeferredCharge | undefined,
): Promise<Reservation> {
  return reserveUnder(deps, await loading, identity, target, size, onEstimate, charge);
}

function reserveUnder(
  deps: SpendDeps,
  settings: OrgPreferences,
  identity: Identity,
  target: Target,
  size: CallSize,
  onEstimate: ((micros: number) => void) | undefined,
  charge: DeferredCharge | undefined,
): MaybePromise<Reservation> {
  const caps = capsOf(identity, settings);
  // The closures (the estimate, the retry) are built in functions of their own, so the
  // usual call, uncapped and reserved at once, builds only the one the ledger is handed.
  const call: Estimated = { deps, target, size, onEstimate, caps };
  try {
    const first = deps.ledger.reserve(caps, costOf(call, promptTokenBound), charge);
    return first instanceof Promise ? retriedOnceRefused(first, call) : first;
  } catch (err) {
    return counted(err, call);
  }
}

/** What a reservation is estimated from, and retried with. */
interface Estimated {
  deps: SpendDeps;
  target: Target;
  size: CallSize;
  onEstimate: ((micros: number) => void) | undefined;
  caps: Caps;
}

/** The call's most it can cost, computed only when a cap asks (the ledger calls it). */
function costOf({ deps, target, size, onEstimate }: Estimated, count: Count): () => number {
  return () => {
    const perAnswer = size.maxTokens ?? target.catalogModel?.maxOutputTokens ?? FALLBACK_MAX_OUTPUT;
    const maxOutput = size.messages === undefined ? 0 : perAnswer * (size.choices ?? 1);
    const price = deps.catalog.price(target.model, target.kind);
    const prompt = Math.max(promptTokens(size, count), size.storedPromptTokens ?? 0);
    // The standard price, or the long-context band's when the estimated prompt is above its threshold
    // (costMicros); a requested tier that costs more is reserved at its price (the answer may be at either).
    const standard = deps.catalog.costMicros(price, prompt, maxOutput);
    const tier = typeof size.serviceTier === "string" ? deps.catalog.costMicros(price, prompt, maxOutput, undefined, size.serviceTier) : 0;
    const micros = Math.max(standard, tier) + (size.feeMicros ?? 0);
    onEstimate?.(micros);
    return micros;
  };
}

async function retriedOnceRefused(first: Promise<Reservation>, call: Estimated): Promise<Reservation> {
  try {
    return await first;
  } catch (err) {
    return counted(err, call);
  }
}

/** Refused at the ceiling: counted with the tokenizer and tried again; refused then, for good. */
function counted(err: unknown, call: Estimated): MaybePromise<Reservation> {
  if (!isCapError(err)) throw err;
  try {
    const second = call.deps.ledger.reserve(call.caps, costOf(call, estimatePromptTokens));
    return second instanceof Promise ? second.catch((e) => final(e, call)) : second;
  } catch (e) {
    return final(e, call);
  }
}

function final(e: unknown, { deps, caps }: Estimated): never {
  if (!isCapError(e)) throw e;
  if (caps.orgMonthlyCents !== null) deps.onBudgetRefusal?.(caps.orgId);
  throw notRetryable(e);
}
