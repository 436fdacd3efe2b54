/**
 * `gateway sign-in-domains list | approve | revoke` as the operator runs them (real
 * processes on a data folder): with one organization a listed domain is in effect; once a
 * second exists it awaits approval (`init` says so), and `list` prints the command that
 * approves it.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { openStore } from "../../src/store/open-store.ts";
import { removeDir, runCli, tempDataDir } from "../support/gateway-process.ts";

setDefaultTimeout(60_000);

const dir = tempDataDir();
afterAll(() => removeDir(dir));

const cli = (...args: string[]) => runCli([...args, "--data", dir]);

/** What an admin's `user.preferences` set would save, through the store the commands use. */
async function listDomains(orgId: string, domains: string[]) {
  const store = openStore({ dataDir: loadConfig({ data: dir }).dataDir, databaseUrl: null });
  try {
    await store.migrate();
    await store.setOrgPreferences(orgId, { ...(await store.getOrgPreferences(orgId)), signInEmailDomains: domains });
  } finally {
    await store.close();
  }
}

test("list, approve and revoke across one and then two organizations", async () => {
  const one = JSON.parse((await runCli(["init", "--data", dir, "--org", "One", "--email", "admin@one.test", "--json"])).stdout);
  expect((await cli("sign-in-domains", "list")).stdout).toContain("No organization lists a sign-in e-mail domain");
  await listDomains(one.orgId, ["one.test"]);
  const alone = await cli("sign-in-domains", "list");
  expect(alone.stdout).toContain(`one.test  "One" (${one.orgId})  in effect (the only organization)`);
  expect(alone.stdout).toContain("With one organization, listed domains need no approval");

  const created = await runCli(["init", "--data", dir, "--org", "Two", "--email", "admin@two.test", "--json"]);
  const two = JSON.parse(created.stdout);
  // Whoever creates the second organization hears that the first one's domain now waits.
  expect(created.stderr).toContain("one.test now await approval (see `./gateway sign-in-domains list`)");
  const waiting = await cli("sign-in-domains", "list");
  expect(waiting.stdout).toContain(
    `one.test  "One" (${one.orgId})  awaiting approval: ./gateway sign-in-domains approve ${one.orgId} one.test`,
  );

  const approved = await cli("sign-in-domains", "approve", "One", "one.test");
  expect(approved.code).toBe(0);
  expect(approved.stdout).toContain(`Approved one.test for "One" (${one.orgId}): first-time sign-ins`);
  const elsewhere = await cli("sign-in-domains", "approve", two.orgId, "one.test");
  expect(elsewhere.code).toBe(1);
  expect(elsewhere.stderr).toContain(`one.test is approved for "One" (${one.orgId}); revoke that first`);
  const json = JSON.parse((await cli("sign-in-domains", "list", "--json")).stdout);
  expect(json).toEqual([
    { domain: "one.test", orgId: one.orgId, orgName: "One", listed: true, approvedAt: expect.stringMatching(/^\d{4}-/), inEffect: true },
  ]);

  const revoked = await cli("sign-in-domains", "revoke", "one.test");
  expect(revoked.code).toBe(0);
  expect(revoked.stdout).toContain('Revoked one.test for "One"');
  const again = await cli("sign-in-domains", "revoke", "one.test");
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("one.test is not approved for any organization");
});

test("a missing word is a usage error (exit 2); a bad domain or an unknown organization is refused in words (exit 1)", async () => {
  const missing = await cli("sign-in-domains", "approve", "One");
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain("needs ORG and DOMAIN");
  expect(missing.stderr).toContain("Usage: ./gateway sign-in-domains approve ORG DOMAIN");
  const bad = await cli("sign-in-domains", "approve", "One", "not_a_domain");
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('"not_a_domain" is not a domain name');
  const nobody = await cli("sign-in-domains", "approve", "Nobody", "x.test");
  expect(nobody.code).toBe(1);
  expect(nobody.stderr).toContain('no organization with id or name "Nobody"');
  expect((await runCli(["--help"])).stdout).toContain("./gateway sign-in-domains approve ORG DOMAIN");
});
