/** The shape `usage.daily` answers with (its own file so the dashboard can share it without the server). */
export interface DailyUsage {
  /** YYYY-MM-DD (UTC). */
  date: string;
  requests: number;
  errors: number;
  costMicros: number;
  byProvider: Record<string, { requests: number; costMicros: number }>;
}
