/**
 * Stage 10: one usage event per attempt at a model (never any prompt or completion text),
 * priced from the catalog in integer micro-dollars (an unlisted model at its family's
 * ceiling, flagged on the row; prompt-cache reads and writes at their own prices, and
 * counted on the row) and handed to the write-behind buffer; in strict durability the
 * call waits until the event is stored.
 */
import { newId } from "../domain/ids.ts";
import type { UsageEvent } from "../domain/types.ts";
import type { CacheTokens, Catalog } from "../providers/catalog/catalog.ts";
import { isProviderKind } from "../providers/catalog/provider-kinds.ts";
import { type Identity, responsibleUserId } from "../domain/identity.ts";
import type { UsageBuffer } from "../state/usage-buffer.ts";
import { SANDBOX_PROVIDER } from "../providers/target.ts";
import { isSandbox } from "./sandbox.ts";
import type { TraceSpan } from "../lib/tracing/trace-span.ts";
import type { DeferredCharge } from "../state/rate-charge.ts";

/** What a call is charged to, and when it started. */
export interface CallScope {
  identity: Identity;
  requestId: string;
  startedAt: number;
  /** The caller's application (`context.applicationId` or `x-gw-application`), recorded on usage. */
  applicationId?: string | null;
  /**
   * Which attempt at a provider the call is on (absent: the first). The fallback loop
   * sets it before each attempt, one at a time, so every row an attempt records carries
   * its own number and the answering row how many attempts the call took.
   */
  attempt?: number;
  /** The GenAI conventions' operation (`chat`, `embeddings`), set when the call starts: for spans and metrics. */
  operation?: string;
  /** The call's span (the request's), absent or the no-op when tracing is off. */
  trace?: TraceSpan;
  /** The current attempt's span, set by the fallback loop beside `attempt`. */
  attemptTrace?: TraceSpan;
  /** The request's rate-limit charge when the runner held it back for the spend reservation to carry (rate-charge.ts). */
  charge?: DeferredCharge;
}

export interface CallResult {
  provider: string;
  model: string;
  status: number;
  errorCode: string | null;
  promptTokens: number;
  completionTokens: number;
  /** Of `promptTokens`, those read from or written to the provider's prompt cache: priced at the cache's prices. */
  cache?: CacheTokens;
  /** What the provider charges beside the tokens (built-in tool calls), at the listed ceiling: the row is marked estimated. */
  feeMicros?: number;
  /** The service tier the answer says it was served at: priced at that tier's rates where the catalog lists them. */
  serviceTier?: string;
}

export class Accountant {
  constructor(
    private readonly catalog: Catalog,
    private readonly usage: UsageBuffer,
    private readonly strict: boolean,
  ) {}

  /** Records the call; returns its cost in micro-dollars (a promise only in strict durability). */
  record(scope: CallScope, r: CallResult): number | Promise<number> {
    const id = scope.identity;
    // A sandbox key's calls are the simulator's, free whatever their usage.
    const sandbox = isSandbox(id);
    const price = sandbox || !isProviderKind(r.provider) ? null : this.catalog.price(r.model, r.provider);
    const fee = sandbox ? 0 : (r.feeMicros ?? 0);
    const costMicros = (price ? this.catalog.costMicros(price, r.promptTokens, r.completionTokens, r.cache, r.serviceTier) : 0) + fee;
    // Cut to the prompt as the catalog prices them (writes first), so the row's counts are
    // what was charged and the cache's share of a prompt is never above all of it.
    const cacheWrite = Math.min(r.cache?.write ?? 0, r.promptTokens);
    const cacheRead = Math.min(r.cache?.read ?? 0, r.promptTokens - cacheWrite);
    const event: UsageEvent = {
      id: newId("evt"),
      requestId: scope.requestId,
      orgId: id.organization.id,
      keyId: id.kind === "serviceAccount" ? id.key.id : null,
      userId: responsibleUserId(id),
      provider: sandbox ? SANDBOX_PROVIDER : r.provider,
      model: r.model,
      promptTokens: r.promptTokens,
      completionTokens: r.completionTokens,
      costMicros,
      latencyMs: Date.now() - scope.startedAt,
      status: r.status,
      errorCode: r.errorCode,
      priceEstimated: price?.estimated === true || fee > 0,
      createdAt: Date.now(),
      applicationId: scope.applicationId ?? null,
      attempts: scope.attempt ?? 1,
      cacheReadTokens: cacheRead,
      cacheWriteTokens: cacheWrite,
    };
    if (this.strict) return this.usage.recordStrict(event).then(() => costMicros);
    this.usage.record(event);
    return costMicros;
  }
}
