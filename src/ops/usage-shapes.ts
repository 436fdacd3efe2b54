/** The shape `usage.daily` answers with, and the prompt cache's share the usage operations show (its own file so the dashboard can share it without the server). */
export interface DailyUsage {
  /** YYYY-MM-DD (UTC). */
  date: string;
  requests: number;
  errors: number;
  costMicros: number;
  promptTokens: number;
  /** Of `promptTokens`, those the providers' prompt caches served (reads) and stored (writes). */
  cacheReadTokens: number;
  cacheWriteTokens: number;
  byProvider: Record<string, ProviderDay>;
}

export interface ProviderDay {
  requests: number;
  costMicros: number;
  promptTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** The part of the prompt tokens the cache served, 0 to 1 to four places; 0 without prompt tokens. */
export const cacheReadShare = (cacheReadTokens: number, promptTokens: number): number =>
  promptTokens > 0 ? Math.round((cacheReadTokens / promptTokens) * 10_000) / 10_000 : 0;
