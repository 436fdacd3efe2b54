/**
 * The Members page in a real browser: an admin sees each invitation not signed in yet with
 * its status (pending until a date, or expired after 7 days) and withdraws one with the
 * page's confirm (dismissed: nothing changes); re-adding an expired address renews it. A
 * member sees no invitation and no button.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { addMember } from "../../src/services/organizations.ts";
import { type DashboardBrowser, startDashboardBrowser } from "../support/dashboard-browser.ts";

const DAY = 24 * 3600 * 1000;
let b: DashboardBrowser;

beforeAll(async () => {
  b = await startDashboardBrowser();
}, 60_000);

afterAll(async () => {
  await b?.stop();
});

const pendingEmails = async () => (await b.rt.store.listPendingInvitations(b.orgId)).map((i) => i.email);

test("an admin withdraws a pending and an expired invitation from the Members page, after confirming", async () => {
  const { page } = b;
  await b.signIn("admin@acme.test");
  await b.openPage("Members and roles");
  for (const email of ["early@acme.test", "late@acme.test"]) {
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Add member" }).click();
    await page.getByRole("row").filter({ hasText: email }).waitFor();
  }
  const invitations = page.getByRole("region", { name: "Invitations" });
  const row = (email: string) => invitations.getByRole("row").filter({ hasText: email });
  expect(await row("early@acme.test").innerText()).toContain("pending until");

  // A week and a day later (signed in again: the old session went idle), both have expired.
  const realNow = b.rt.services.now;
  b.rt.services.now = () => realNow() + 8 * DAY;
  try {
    await b.signIn("admin@acme.test");
    await b.openPage("Members and roles");
    await row("late@acme.test").getByText("expired").waitFor();
    expect(await row("early@acme.test").getByText("expired").count()).toBe(1);

    // Dismissing the confirm changes nothing.
    let asked = "";
    page.once("dialog", (d) => {
      asked = d.message();
      void d.dismiss();
    });
    await row("late@acme.test").getByRole("button", { name: "Withdraw the invitation of late@acme.test" }).click();
    expect(asked).toContain("Withdraw the invitation of late@acme.test?");
    expect(await pendingEmails()).toContain("late@acme.test");

    page.once("dialog", (d) => void d.accept());
    await row("late@acme.test").getByRole("button", { name: "Withdraw" }).click();
    await row("late@acme.test").waitFor({ state: "detached" });
    expect(await pendingEmails()).toEqual(["early@acme.test"]);
    expect(await b.rt.store.getUserByEmail("late@acme.test")).toBeNull();
    await b.shot("members-invitations");

    // Adding the expired address again renews it.
    await page.getByLabel("E-mail").fill("early@acme.test");
    await page.getByRole("button", { name: "Add member" }).click();
    await row("early@acme.test").getByText("pending until").waitFor();

    // The pending one is withdrawn the same way.
    page.once("dialog", (d) => void d.accept());
    await row("early@acme.test").getByRole("button", { name: "Withdraw" }).click();
    await invitations.waitFor({ state: "detached" });
    expect(await pendingEmails()).toEqual([]);

    // A member manages no one: no invitation, no button.
    await addMember(b.rt.services, CLI_ACTOR, b.orgId, { email: "member@acme.test", role: "member" });
    await b.signIn("member@acme.test");
    await b.openPage("Members and roles");
    await page.getByText("Only organization admins manage members.").waitFor();
    expect(await page.getByRole("button", { name: "Withdraw" }).count()).toBe(0);
  } finally {
    b.rt.services.now = realNow;
  }
  expect(b.pageErrors).toEqual([]);
}, 120_000);
