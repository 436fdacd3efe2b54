/** The schema's versions, in order. A new migration is a new file appended here, never an edit. */
import initial from "./001_initial.sql" with { type: "text" };
import dropUsageTimeIndex from "./002_drop_usage_time_index.sql" with { type: "text" };
import alertsAndEtl from "./005_alerts_and_etl.sql" with { type: "text" };

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  { version: 1, name: "initial", sql: initial },
  { version: 2, name: "drop_usage_time_index", sql: dropUsageTimeIndex },
  { version: 5, name: "alerts_and_etl", sql: alertsAndEtl },
];
