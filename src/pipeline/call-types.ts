/**
 * What a model call takes and gives back: the caller's side of the pipeline, shared by
 * the HTTP surfaces, `ai.proxy` and the sandbox.
 */
import type { Caller } from "../providers/upstream.ts";
import type { CallScope } from "./account.ts";

export interface CallInput {
  scope: CallScope;
  headers: Headers;
  /** The client's request: its signal aborts when the client goes away (read only when needed, see Caller). */
  caller: Caller;
}

export interface JsonOutcome {
  type: "json";
  status: number;
  /** The provider's body exactly as received (or its translation): what the surface sends. */
  text: string;
  /** `provider/model` that answered (`sandbox/<model>` for test keys). */
  servedBy: string;
  costMicros: number;
  /** The `x-gw-security` header: what scanning found, by category. */
  security?: string;
  /** The `x-gw-price: estimated` header: the model is unlisted and priced at its family's ceiling. */
  priceEstimated?: boolean;
  /** The `x-gw-moe-routed` header: `provider/model` the router chose (`gateway/auto` only). */
  routedTo?: string;
  /** The `x-gw-attempts` header: providers tried, set when more than one could have been. */
  attempts?: number;
  /** The `x-gw-route-skipped` header: routed candidates passed over for the spend cap (`provider/model=code`, comma-separated). */
  routeSkipped?: string;
  /** The `x-gw-optimized-tokens` header (`<before>-><after>`): set when the context optimizer ran. */
  optimizedTokens?: string;
  /** The `x-gw-embedding-chunks` header: how many inputs each embeddings input was split into (`1,3`). */
  embeddingChunks?: string;
}

export interface StreamOutcome {
  type: "stream";
  status: number;
  stream: ReadableStream<Uint8Array>;
  servedBy: string;
  security?: string;
  priceEstimated?: boolean;
  routedTo?: string;
  attempts?: number;
  routeSkipped?: string;
  optimizedTokens?: string;
}

export type CallOutcome = JsonOutcome | StreamOutcome;
