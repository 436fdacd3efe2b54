/** The scale-out store: the SQL store on Postgres, shared by every node (GW_DATABASE_URL=postgres://...). */
import { SqlStore } from "../sql/sql-store.ts";
import { PostgresDriver, type PostgresStoreOptions } from "./postgres-driver.ts";

export type { PostgresStoreOptions };

export class PostgresStore extends SqlStore {
  constructor(url: string, opts: PostgresStoreOptions = {}) {
    super(new PostgresDriver(url, opts));
  }
}
