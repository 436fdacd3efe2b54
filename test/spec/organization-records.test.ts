/**
 * SPEC "Resources", Organization records: `org.api-keys.list` returns the active keys of
 * all members, each with its owner's e-mail, and a service account's `createdBy` names
 * the member who created it, whoever that was (here a second admin, signed in).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { addMember } from "../../src/services/organizations.ts";
import { SESSION_COOKIE, startSession } from "../../src/services/sessions.ts";
import { type InProcessGateway, startInProcessGateway } from "../support/in-process-gateway.ts";

let gw: InProcessGateway;

beforeAll(async () => {
  gw = await startInProcessGateway();
});

afterAll(() => gw.stop());

test("every member's active keys are listed with their owner's e-mail; createdBy is the creating member", async () => {
  const s = gw.rt.services;
  const admin = { key: gw.init.keyValue };
  const bob = await addMember(s, CLI_ACTOR, gw.init.organization.id, { email: "bob@acme.test", role: "admin" });
  const bobSession = { cookie: `${SESSION_COOKIE}=${await startSession(s.store, bob, s.now())}` };
  const bobs = await gw.op(bobSession, "org.service-account.create", { serviceAccountName: "bobs-pipeline", name: "ci" });
  expect(bobs.status).toBe(200);
  expect(bobs.body.data.serviceAccount.createdBy).toBe(bob.id);
  const revoked = await gw.op(bobSession, "org.service-account.create", { serviceAccountName: "bobs-old", name: "old" });
  expect((await gw.op(admin, "org.api-key.revoke", { keyId: revoked.body.data.apiKey.id, reason: "replaced" })).status).toBe(200);

  const keys = (await gw.op(admin, "org.api-keys.list")).body.data.apiKeys as any[];
  expect(keys.map((k) => [k.name, k.ownerEmail]).sort()).toEqual([
    ["ci", "bob@acme.test"],
    ["default", "admin@acme.test"],
  ]);
  const accounts = (await gw.op(admin, "org.service-accounts.list")).body.data.serviceAccounts as any[];
  expect(accounts.find((a) => a.name === "bobs-pipeline")).toMatchObject({ createdBy: bob.id, apiKeys: [{ name: "ci" }] });
  expect(accounts.find((a) => a.name === "admin")).toMatchObject({ createdBy: gw.init.user.id });
});
