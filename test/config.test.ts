import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig, unknownSettings } from "../src/config.ts";

describe("loadConfig", () => {
  test("defaults match the design: 127.0.0.1:8080, ./data, 1,200 per 60 s", () => {
    const c = loadConfig({}, {});
    expect(c.host).toBe("127.0.0.1");
    expect(c.port).toBe(8080);
    expect(c.dataDir.endsWith("/data")).toBe(true);
    expect(c.rateLimitRequests).toBe(1200);
    expect(c.rateLimitWindowS).toBe(60);
    expect(c.databaseUrl).toBeNull();
    expect(c.durability).toBe("batched");
  });

  test("flags win over environment variables", () => {
    const c = loadConfig({ port: "9000", host: "0.0.0.0" }, { GW_PORT: "7000", GW_HOST: "10.0.0.1", GW_RATE_LIMIT_REQUESTS: "5000" });
    expect(c.port).toBe(9000);
    expect(c.host).toBe("0.0.0.0");
    expect(c.rateLimitRequests).toBe(5000);
  });

  test("every bad value is reported at once, naming its source", () => {
    try {
      loadConfig(
        { port: "99999" },
        { GW_RATE_LIMIT_WINDOW_S: "abc", GW_LOG_LEVEL: "loud", GW_DATABASE_URL: "mysql://x", GW_MASTER_KEY: "c2hvcnQ=" },
      );
      throw new Error("expected a ConfigError");
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join("\n");
      expect(problems).toContain("--port: must be between 0 and 65535");
      expect(problems).toContain("GW_RATE_LIMIT_WINDOW_S: must be a whole number");
      expect(problems).toContain("GW_LOG_LEVEL: must be one of");
      expect(problems).toContain("GW_DATABASE_URL: must be a postgres: or postgresql: or sqlite: URL");
      expect(problems).toContain("GW_MASTER_KEY: must be 32 bytes in base64");
      // A secret is never echoed back.
      expect(problems).not.toContain("c2hvcnQ=");
    }
  });

  test("OIDC settings go together", () => {
    expect(() => loadConfig({}, { GW_OIDC_ISSUER: "https://id.example.com" })).toThrow("go together");
  });

  test("GW_ALLOW_PRIVATE_EGRESS allows private egress; its former name GW_ALLOW_PRIVATE_PROVIDERS still works, the new name winning", () => {
    expect(loadConfig({}, {}).allowPrivateEgress).toBe(false);
    expect(loadConfig({}, { GW_ALLOW_PRIVATE_EGRESS: "1" }).allowPrivateEgress).toBe(true);
    expect(loadConfig({}, { GW_ALLOW_PRIVATE_PROVIDERS: "1" }).allowPrivateEgress).toBe(true);
    expect(loadConfig({}, { GW_ALLOW_PRIVATE_EGRESS: "0", GW_ALLOW_PRIVATE_PROVIDERS: "1" }).allowPrivateEgress).toBe(false);
    expect(() => loadConfig({}, { GW_ALLOW_PRIVATE_PROVIDERS: "maybe" })).toThrow("GW_ALLOW_PRIVATE_PROVIDERS: must be true or false");
  });

  test("GW_NOTIFICATION_RETENTION_DAYS: 90 by default, never under 32 (this month's notifications are the budget alerts' memory)", () => {
    expect(loadConfig({}, {}).notificationRetentionDays).toBe(90);
    expect(loadConfig({}, { GW_NOTIFICATION_RETENTION_DAYS: "32" }).notificationRetentionDays).toBe(32);
    expect(() => loadConfig({}, { GW_NOTIFICATION_RETENTION_DAYS: "31" })).toThrow(
      "GW_NOTIFICATION_RETENTION_DAYS: must be between 32 and 36500",
    );
  });

  test("a public URL or OIDC issuer holding a user name or password is refused without echoing it; so is a query or fragment", () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({}, env);
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problems({ GW_PUBLIC_URL: "https://ops:hunter2@gateway.example.com" })).toEqual([
      "GW_PUBLIC_URL: must not hold a user name or password",
    ]);
    const issuer = problems({ GW_OIDC_ISSUER: "https://ops:hunter2@id.example.com", GW_OIDC_CLIENT_ID: "a", GW_OIDC_CLIENT_SECRET: "b" });
    expect(issuer).toContain("GW_OIDC_ISSUER: must not hold a user name or password");
    expect(issuer.join("\n")).not.toContain("hunter2");
    expect(problems({ GW_PUBLIC_URL: "https://gateway.example.com/?next=x" })).toEqual([
      "GW_PUBLIC_URL: must not have a query (?...) or fragment (#...)",
    ]);
    // Database and Redis addresses carry their credentials by design.
    expect(loadConfig({}, { GW_REDIS_URL: "redis://:pw@redis.internal:6379" }).redisUrl).toBe("redis://:pw@redis.internal:6379");
  });

  test("a bad value is quoted back cut short: a variable can hold a pasted key or a whole file", () => {
    const long = `${"9".repeat(30)}x${"s".repeat(5000)}`;
    expect(() => loadConfig({}, { GW_PORT: long })).toThrow(`GW_PORT: must be a whole number, got "${long.slice(0, 40)}…"`);
    expect(() => loadConfig({}, { GW_LOG_LEVEL: long })).toThrow(`got "${long.slice(0, 40)}…"`);
  });

  test("an environment file saved with Windows line endings reads as it would without them", () => {
    const c = loadConfig({}, { GW_LOG_LEVEL: "warn\r", GW_TRUST_PROXY: "true\r", GW_DURABILITY: "strict\r", GW_PORT: "9090\r" });
    expect([c.logLevel, c.trustProxy, c.durability, c.port]).toEqual(["warn", true, "strict", 9090]);
  });

  test("GW_DRAIN_TIMEOUT_S: 25 s by default (under Kubernetes' 30 s grace), 0 for no bound, nothing negative or fractional", () => {
    expect(loadConfig({}, {}).drainTimeoutS).toBe(25);
    expect(loadConfig({}, { GW_DRAIN_TIMEOUT_S: "0" }).drainTimeoutS).toBe(0);
    expect(() => loadConfig({}, { GW_DRAIN_TIMEOUT_S: "-1" })).toThrow("GW_DRAIN_TIMEOUT_S: must be a whole number");
    expect(() => loadConfig({}, { GW_DRAIN_TIMEOUT_S: "2.5" })).toThrow("GW_DRAIN_TIMEOUT_S: must be a whole number");
  });

  test("GW_STORE_TIMEOUT_S: 30 s by default; a bound is required (0 would let a silent database hold a flush for ever)", () => {
    expect(loadConfig({}, {}).storeTimeoutS).toBe(30);
    expect(loadConfig({}, { GW_STORE_TIMEOUT_S: "5" }).storeTimeoutS).toBe(5);
    expect(() => loadConfig({}, { GW_STORE_TIMEOUT_S: "0" })).toThrow("GW_STORE_TIMEOUT_S: must be between 1 and 3600, got 0");
  });
});

describe("unknownSettings", () => {
  test("a GW_ variable no setting reads is reported with the setting it likely meant; other commands' variables are not", () => {
    expect(
      unknownSettings({
        GW_MASTERKEY: "x",
        GW_DATA_DIRECTORY: "/var/lib/gateway",
        GW_SOMETHING_ELSE_ENTIRELY: "1",
        GW_PORT: "8080",
        GW_ALLOW_PRIVATE_PROVIDERS: "1",
        GW_MOCK_PORT: "1",
        GW_DEMO_ORG: "d",
        GW_SERVE_WORKER: "1",
        GW_URL: "http://127.0.0.1:8080",
        GW_KEY: "gw_live_x",
        HOME: "/root",
      }),
    ).toEqual([
      { variable: "GW_DATA_DIRECTORY", didYouMean: "GW_DATA_DIR" },
      { variable: "GW_MASTERKEY", didYouMean: "GW_MASTER_KEY" },
      { variable: "GW_SOMETHING_ELSE_ENTIRELY" },
    ]);
  });
});
