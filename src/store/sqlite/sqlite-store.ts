/** The embedded store: the SQL store on bun:sqlite, one file under the data folder (or `:memory:` in tests). */
import { SqlStore } from "../sql/sql-store.ts";
import { SqliteDriver } from "./sqlite-driver.ts";

export class SqliteStore extends SqlStore {
  constructor(path: string) {
    super(new SqliteDriver(path));
  }
}
