/**
 * A Redis that refuses the password is reported as that, not as "cannot reach Redis"
 * (Bun's client says "Connection closed" for both), and neither message prints the URL's
 * password. Against this file's private Redis, given a password (it is stopped after the file).
 */
import { beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RedisClient } from "bun";
import { loadConfig } from "../../../src/config.ts";
import { createLogger } from "../../../src/lib/log.ts";
import { createRuntime } from "../../../src/runtime.ts";
import { refusedCredentials } from "../../../src/state/redis/redis-credentials.ts";
import { redisPerFile } from "../../support/redis-per-file.ts";
import { freePort } from "../../support/servers.ts";

const redis = redisPerFile();
const PASSWORD = "right-horse-battery";
const WRONG = "Wr0ng-s3cret-pw";
let admin: RedisClient;

const withCredentials = (credentials: string) => redis.url.replace("redis://", `redis://${credentials}@`);

beforeAll(async () => {
  admin = new RedisClient(redis.url, { autoReconnect: false });
  redis.opened.push(admin);
  await admin.send("CONFIG", ["SET", "requirepass", PASSWORD]);
});

/** `gateway serve`'s start with this GW_REDIS_URL: the error it stops with. */
async function startError(url: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-redis-auth-"));
  try {
    const config = loadConfig({ data: dataDir }, { GW_REDIS_URL: url, GW_LOG_LEVEL: "silent", GW_REDIS_TIMEOUT_MS: "1000" });
    const rt = await createRuntime(
      config,
      createLogger("silent", () => {}),
    );
    await rt.shutdown();
    return "started";
  } catch (err) {
    return (err as Error).message;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test("a wrong password is reported as refused, without the password or the URL", async () => {
  const message = await startError(withCredentials(`:${WRONG}`));
  expect(message).toStartWith("GW_REDIS_URL: Redis refused the user name or password");
  expect(message).not.toContain("cannot reach");
  expect(message).not.toContain(WRONG);
  expect(message).not.toContain(String(redis.port));
});

test("an ACL user's wrong password and a missing password are told apart from an unreachable Redis", async () => {
  expect(await refusedCredentials(withCredentials(`default:${WRONG}`), 1000)).toContain("refused the user name or password");
  expect(await refusedCredentials(redis.url, 1000)).toContain("requires a password (NOAUTH)");
  // The right password, and nothing listening: not a refusal.
  expect(await refusedCredentials(withCredentials(`:${PASSWORD}`), 1000)).toBeNull();
  expect(await refusedCredentials(`redis://:${WRONG}@127.0.0.1:${await freePort()}`, 1000)).toBeNull();
});
