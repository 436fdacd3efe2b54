/**
 * A private Postgres for one test file: started before its first test and stopped after
 * its last. Each test asks it for a database of its own (`createDatabase`), inside a test.
 */
import { afterAll, beforeAll } from "bun:test";
import { type PostgresServer, startPostgres } from "./servers.ts";

export function postgresPerFile(): Pick<PostgresServer, "createDatabase"> {
  let server: PostgresServer | null = null;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });
  return {
    createDatabase() {
      if (!server) throw new Error("this file's Postgres is not started yet: ask for a database inside a test or a hook");
      return server.createDatabase();
    },
  };
}
