/**
 * A routing candidate: one model on one configured provider, with what the router
 * weighs (price, quality, latency, health). Built from the catalog and the provider
 * directory by the caller of the router; the router itself reads nothing else.
 * Read only: the candidates of a kept table are shared by every call that reads it.
 */
import type { ModelCapabilities } from "../providers/catalog/models.ts";

export interface Candidate {
  /** The provider configuration's id (health and limits are kept per configuration). */
  readonly providerId: string;
  /** The configuration's name, as `x-gw-moe-routed` and the route answer show it. */
  readonly providerName: string;
  readonly model: string;
  /** USD per million tokens. */
  readonly inputPerMTok: number;
  readonly outputPerMTok: number;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly capabilities: ModelCapabilities;
  /** 0-100, from the catalog. */
  readonly quality: number;
  /** Expected milliseconds to a whole answer: measured on this node when it has samples, else the catalog's prior. */
  readonly latencyMs: number;
  /** Share of recent calls that failed (0-1). */
  readonly errorRate: number;
  /** The configuration is cooling down after repeated failures, or is at one of its own limits. */
  readonly unavailable: "cooldown" | "limit" | null;
}
