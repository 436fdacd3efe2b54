/**
 * Credentials written as the fallback of an environment lookup (credential-fallbacks.ts):
 * found when the variable, the argument or the assigned name names a credential; empty
 * defaults, placeholders and settings that are no credential stay unflagged.
 */
import { describe, expect, test } from "bun:test";
import { secretKinds } from "./fixture-scans.ts";

describe("found", () => {
  test.each([
    ['db_password = os.getenv("DB_PASSWORD", "Wint3r!Sky42")'],
    ['APP_SECRET := getenv("SETTING_7", "Xq7Lm2Rk9!")'],
    ['conn = connect(getenv(PASSWORD, "Gr33n!Tea42"))'],
    ['pw := os.getenv("DBPW", b"Xq7Lm2Rk9!")'],
    ['secret_key = ENV.fetch("SECRET_KEY_BASE", "Hn3Wc6Pd5Vb7Qm2")'],
    ['String pass = System.getenv().getOrDefault("MAIL_PASSWORD", "Wint3r!Sky42");'],
    ['token = os.environ.get("GH_TOKEN") or "Xq7Lm2Rk9XwTz4Hn"'],
    ["$pwd = getenv('DB_PASS') ?: 'Gr33n!Tea42';"],
    ['const apiKey = process.env.API_KEY ?? "Vb7Qm2Lx9Rk4Tz8H";'],
    ["POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-Wint3r!Sky42}"],
    ['"create(getenv(\\"SECRET\\", \\"Xq7Lm2Rk9!\\"))"'],
  ])("%p", (text) => {
    expect(secretKinds(text)).toContain("password_assignment");
  });
});

describe("not found", () => {
  test.each([
    'DB_HOST = os.getenv("DB_HOST", "localhost")',
    'password = os.getenv("DB_PASSWORD", "")',
    'SECRET_KEY = os.getenv("SECRET_KEY", "changeme")',
    'TOKEN_URL = getenv("TOKEN_URL", "https://auth.example.com/token")',
    'secret_name = os.getenv("SECRET_NAME", "prod-db-creds")',
    'const port = process.env.PORT || "3000";',
    'level = os.environ.get("LOG_LEVEL") or "warning"',
    "image: postgres:${PG_VERSION:-16-alpine}",
    "echo ${DB_PASSWORD:-changeme}",
    "echo ${API_TOKEN:-}",
  ])("%p", (text) => {
    expect(secretKinds(text)).toEqual([]);
  });
});
