/**
 * A routing candidate: one model on one configured provider, with what the router
 * weighs (price, quality, latency, health). Built from the catalog and the provider
 * directory by the caller of the router; the router itself reads nothing else.
 */
import type { ModelCapabilities } from "../providers/catalog/models.ts";

export interface Candidate {
  /** The provider configuration's id (health and limits are kept per configuration). */
  providerId: string;
  /** The configuration's name, as `x-gw-moe-routed` and the route answer show it. */
  providerName: string;
  model: string;
  /** USD per million tokens. */
  inputPerMTok: number;
  outputPerMTok: number;
  contextWindow: number;
  maxOutputTokens: number;
  capabilities: ModelCapabilities;
  /** 0-100, from the catalog. */
  quality: number;
  /** Expected milliseconds to a whole answer: measured on this node when it has samples, else the catalog's prior. */
  latencyMs: number;
  /** Share of recent calls that failed (0-1). */
  errorRate: number;
  /** The configuration is cooling down after repeated failures, or is at one of its own limits. */
  unavailable: "cooldown" | "limit" | null;
}
