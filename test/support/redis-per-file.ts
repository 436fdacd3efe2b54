/**
 * A private Redis for one test file: started before its first test and stopped after
 * its last, with every connection its tests registered in `opened` closed first. Read
 * its fields inside tests (they exist once the file's tests start).
 */
import { afterAll, beforeAll } from "bun:test";
import { type RedisServer, startRedis } from "./servers.ts";

export interface FileRedis extends RedisServer {
  /** Connections to close before the server stops. */
  readonly opened: { close(): unknown }[];
}

export function redisPerFile(): FileRedis {
  let server: RedisServer | null = null;
  const opened: { close(): unknown }[] = [];
  beforeAll(async () => {
    server = await startRedis();
  }, 30_000);
  afterAll(async () => {
    for (const c of opened) c.close();
    await server?.stop();
  });
  const started = (): RedisServer => {
    if (!server) throw new Error("this file's Redis is not started yet: read it inside a test");
    return server;
  };
  return {
    opened,
    get url() {
      return started().url;
    },
    get port() {
      return started().port;
    },
    kill: () => started().kill(),
    restart: () => started().restart(),
    stop: () => started().stop(),
  };
}
