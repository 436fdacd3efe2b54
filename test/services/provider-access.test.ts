/** Which configured providers a caller may use: the answer is kept per provider list and caller, and follows a new list. */
import { expect, test } from "bun:test";
import type { ProviderConfigRecord } from "../../src/domain/types.ts";
import { configuredProviderVerdicts } from "../../src/policy/provider-authorization.ts";
import { Catalog } from "../../src/providers/catalog/catalog.ts";
import { usableProviders } from "../../src/services/provider-access.ts";
import { MemoryProviderDirectory } from "../../src/state/provider-directory.ts";
import { openPlain, providerRecord, serviceAccount, user } from "../policy/fixtures.ts";

const catalog = Catalog.builtIn();

function directory(records: () => ProviderConfigRecord[]) {
  return new MemoryProviderDirectory(
    async () => records(),
    openPlain,
    (kind, rec) => configuredProviderVerdicts(catalog, kind, rec),
  );
}

const ids = (list: { record: { id: string } }[]) => list.map((p) => p.record.id);

test("each caller gets its own answer from one list, and the same answer again while the list stands", async () => {
  const org = providerRecord({ id: "p-org", createdAt: 2 });
  const alice = providerRecord({ id: "p-alice", ownerUserId: "alice", createdAt: 1 });
  const all = await directory(() => [org, alice]).get("org_t");
  expect(ids(usableProviders(all, user("alice")))).toEqual(["p-alice", "p-org"]);
  expect(ids(usableProviders(all, user("bob")))).toEqual(["p-org"]);
  expect(ids(usableProviders(all, serviceAccount("alice")))).toEqual(["p-org", "p-alice"]);
  // A user and a service account created by that user are different callers.
  expect(ids(usableProviders(all, serviceAccount(null)))).toEqual(["p-org", "p-alice"]);
  expect(usableProviders(all, user("alice"))).toBe(usableProviders(all, user("alice")));
});

test("a new list (the directory loaded again after a change) gets answers of its own", async () => {
  const org = providerRecord({ id: "p-org", createdAt: 2 });
  let records = [org];
  const dir = directory(() => records);
  const before = await dir.get("org_t");
  expect(ids(usableProviders(before, user("alice")))).toEqual(["p-org"]);
  records = [org, providerRecord({ id: "p-alice", ownerUserId: "alice", createdAt: 3 })];
  dir.evict("org_t");
  const after = await dir.get("org_t");
  expect(after).not.toBe(before);
  expect(ids(usableProviders(after, user("alice")))).toEqual(["p-alice", "p-org"]);
});

test("a side (context.scope) keeps only its providers, and is answered apart from the same caller without one", async () => {
  const org = providerRecord({ id: "p-org", createdAt: 2 });
  const alice = providerRecord({ id: "p-alice", ownerUserId: "alice", createdAt: 1 });
  const bob = providerRecord({ id: "p-bob", ownerUserId: "bob", createdAt: 0 });
  const all = await directory(() => [org, alice, bob]).get("org_t");
  expect(ids(usableProviders(all, user("alice")))).toEqual(["p-alice", "p-org"]);
  expect(ids(usableProviders(all, { ...user("alice"), providerSide: "organization" }))).toEqual(["p-org"]);
  expect(ids(usableProviders(all, { ...user("alice"), providerSide: "user" }))).toEqual(["p-alice"]);
  expect(ids(usableProviders(all, { ...serviceAccount("alice"), providerSide: "organization" }))).toEqual(["p-org"]);
  // A service account's creator's providers are lent, not its own.
  expect(ids(usableProviders(all, { ...serviceAccount("alice"), providerSide: "user" }))).toEqual([]);
  expect(ids(usableProviders(all, user("alice")))).toEqual(["p-alice", "p-org"]);
});
