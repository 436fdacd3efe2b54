/**
 * Stage 9: did the model that answered match the one requested? Provider spellings
 * of one model are normalized away first: dated snapshots (`gpt-4o-2024-08-06`,
 * `claude-sonnet-4-5-20250929`), `-latest` and `-0` aliases, the cloud platform's
 * decorations (`anthropic.` and inference-profile prefixes such as `us.anthropic.`,
 * `apac.anthropic.`, `us-gov.anthropic.`, `global.anthropic.`; `-v1:0` suffixes),
 * `:latest` tags of self-hosted servers, and `models/` prefixes.
 */

import { PLATFORM_MODEL_ID } from "../providers/bedrock/model-ids.ts";

/** Normalized ids by spelling: a gateway sees few model names, and seven replacements a call add up. Bounded, since answers name what they like. */
const normalized = new Map<string, string>();
const MAX_REMEMBERED = 1024;

export function normalizeModelId(id: string): string {
  let m = normalized.get(id);
  if (m !== undefined) return m;
  m = normalize(id);
  if (normalized.size >= MAX_REMEMBERED) normalized.clear();
  normalized.set(id, m);
  return m;
}

function normalize(id: string): string {
  let m = id.trim().toLowerCase();
  m = m.replace(/^models\//, "");
  m = m.replace(PLATFORM_MODEL_ID, "");
  m = m.replace(/-v\d+(?::\d+)?$/, "");
  m = m.replace(/:latest$/, "");
  m = m.replace(/-(?:\d{4}-\d{2}-\d{2}|\d{8})$/, "");
  m = m.replace(/-latest$/, "");
  m = m.replace(/-0$/, "");
  return m;
}

/** True when `answered` is the requested model or one of its spellings; an answer that names no model cannot be judged and passes. */
export function isSameModel(requested: string, answered: string | null | undefined): boolean {
  if (!answered || answered === requested) return true;
  return normalizeModelId(requested) === normalizeModelId(answered);
}
