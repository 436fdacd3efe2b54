/**
 * The dashboard's alert and scanner settings in a real browser: an admin sets the alert
 * check interval and the phone region on the Preferences page from the keyboard (read
 * back with `user.preferences`), a member sees them and cannot change them, and the
 * Notifications page shows a webhook post that failed, with its attempts. A sign-in
 * domain another organization lists is refused on the page in the server's words.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CLI_ACTOR } from "../../src/domain/identity.ts";
import { egressFetch } from "../../src/lib/egress/egress-fetch.ts";
import { createLogger } from "../../src/lib/log.ts";
import { Notifier } from "../../src/services/alerts/notifier.ts";
import { addMember, initializeOrganization } from "../../src/services/organizations.ts";
import { type DashboardBrowser, startDashboardBrowser } from "../support/dashboard-browser.ts";

let b: DashboardBrowser;
/** The alert webhook receiver: answers from `answers` in turn, then 204. */
let receiver: ReturnType<typeof Bun.serve>;
const answers: number[] = [];
let posts = 0;

beforeAll(async () => {
  receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => {
      await req.text();
      posts++;
      return new Response(null, { status: answers.shift() ?? 204 });
    },
  });
  b = await startDashboardBrowser();
}, 60_000);

afterAll(async () => {
  await b?.stop();
  receiver?.stop(true);
});

async function readPreferences(): Promise<{ alertCheckIntervalS: number | null; phoneRegion: string }> {
  const res = await fetch(`${b.base}/api/v1/gateway`, {
    method: "POST",
    headers: { authorization: `Bearer ${b.adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ operation: "user.preferences", params: {} }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { alertCheckIntervalS: number | null; phoneRegion: string } }).data;
}

/** Opens Preferences and waits until the form has loaded. */
async function openPreferences() {
  await b.openPage("Preferences");
  await b.page.getByRole("form", { name: "Preferences" }).waitFor();
}

const focusedName = () => b.page.evaluate<string | null>("document.activeElement?.getAttribute('name')");

test("an admin sets the alert check interval and the phone region from the keyboard; a member cannot", async () => {
  const { page } = b;
  await b.signIn("admin@acme.test");
  await openPreferences();
  const region = page.getByLabel("Phone region (numbers written without +)");
  const interval = page.getByLabel("Alert check interval, seconds");
  // The defaults: US, and no interval of the organization's own (the operator's applies).
  expect(await region.inputValue()).toBe("US");
  expect(await interval.inputValue()).toBe("");
  expect(await region.getByRole("option", { name: "Germany (DE)" }).count()).toBe(1);

  // Each is the next stop of Tab after the field before it.
  await page.getByLabel("Prompt injection").focus();
  await page.keyboard.press("Tab");
  expect(await focusedName()).toBe("phoneRegion");
  await region.selectOption("DE");
  await page.getByLabel("Alert webhook URL").focus();
  await page.keyboard.press("Tab");
  expect(await focusedName()).toBe("alertCheckIntervalS");
  await page.keyboard.type("45");
  // A select that is not at its first option keeps its saved value too (a select's `defaultValue` once showed the first).
  await page.getByLabel("Default routing strategy").selectOption("cost");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("Saved.").waitFor();
  expect(await readPreferences()).toMatchObject({ alertCheckIntervalS: 45, phoneRegion: "DE" });

  // Shown as saved when the page opens again.
  await b.openPage("Overview");
  await openPreferences();
  expect(await region.inputValue()).toBe("DE");
  expect(await interval.inputValue()).toBe("45");
  expect(await page.getByLabel("Default routing strategy").inputValue()).toBe("cost");
  await b.shot("preferences-alerts-region");

  // Below the minimum, the form is not sent and the field says why; nothing changes.
  await interval.fill("10");
  await page.getByRole("button", { name: "Save" }).click();
  expect(await page.evaluate<string>("document.querySelector('[name=alertCheckIntervalS]').validationMessage")).not.toBe("");
  expect(await page.getByText("Saved.").count()).toBe(0);
  expect((await readPreferences()).alertCheckIntervalS).toBe(45);

  // Emptied: back to the operator's default.
  await interval.fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("Saved.").waitFor();
  expect(await readPreferences()).toMatchObject({ alertCheckIntervalS: null, phoneRegion: "DE" });

  // A member sees the organization's settings but cannot change them.
  await addMember(b.rt.services, CLI_ACTOR, b.orgId, { email: "member@acme.test", role: "member" });
  await b.signIn("member@acme.test");
  await openPreferences();
  expect(await region.inputValue()).toBe("DE");
  expect(await region.isDisabled()).toBe(true);
  expect(await interval.isDisabled()).toBe(true);
  expect(b.pageErrors).toEqual([]);
}, 120_000);

test("a notification whose webhook post failed shows the failure, its last error and each attempt", async () => {
  const { page } = b;
  await b.signIn("admin@acme.test");
  // The webhook, set on the page: its signing secret comes with it.
  await openPreferences();
  await page.getByLabel("Alert webhook URL").fill(`http://127.0.0.1:${receiver.port}/hook`);
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByTestId("secret-value").waitFor();
  await page.getByRole("button", { name: "I have stored it" }).click();

  // Notifications through the gateway's notifier and webhook delivery, over the runtime's store: the
  // receiver answers the first post 503 (retried) then 404 (the receiver saying no: not retried).
  const notifier = new Notifier({
    store: b.rt.services.store,
    box: b.rt.services.box,
    log: createLogger("silent"),
    delivery: { fetch: egressFetch, sleep: Bun.sleep, now: Date.now, attempts: 4, backoffMs: 10, timeoutMs: 10_000 },
  });
  answers.push(503, 404);
  await notifier.notify({
    orgId: b.orgId,
    kind: "rate_limit.status",
    severity: "critical",
    title: "openai: rate-limit status critical",
    body: {},
  });
  await notifier.idle();
  await notifier.notify({
    orgId: b.orgId,
    kind: "rate_limit.status",
    severity: "warning",
    title: "openai: rate-limit status warning",
    body: {},
  });
  await notifier.idle();
  expect(posts).toBe(3);

  await b.openPage("Notifications");
  const failed = page.getByRole("listitem").filter({ hasText: "openai: rate-limit status critical" });
  await failed.waitFor();
  const summary = failed.locator("summary");
  expect(await summary.innerText()).toBe("webhook failed HTTP 404 (2 attempts)");
  const attempts = failed.getByRole("list").getByRole("listitem");
  expect(await attempts.allInnerTexts()).toEqual([
    expect.stringMatching(/^Attempt 1: HTTP 503 /),
    expect.stringMatching(/^Attempt 2: HTTP 404 /),
  ]);
  expect(await attempts.first().isVisible()).toBe(true);

  // The delivered one says so; its attempt is one Enter away on its summary.
  const delivered = page.getByRole("listitem").filter({ hasText: "openai: rate-limit status warning" });
  expect(await delivered.locator("summary").innerText()).toBe("webhook delivered (1 attempt)");
  const answered = delivered.getByRole("list").getByRole("listitem");
  expect(await answered.isVisible()).toBe(false);
  await delivered.locator("summary").focus();
  await page.keyboard.press("Enter");
  expect(await answered.innerText()).toMatch(/^Attempt 1: answered 204 /);
  await b.shot("notifications-webhook");
  expect(b.pageErrors).toEqual([]);
}, 120_000);

test("a sign-in domain another organization lists is refused on the Preferences page in words, and nothing is saved", async () => {
  const { page } = b;
  const other = await initializeOrganization(b.rt.services, { name: "Other", adminEmail: "admin@other.test", tier: "enterprise" });
  await b.rt.store.setOrgPreferences(other.organization.id, {
    ...(await b.rt.store.getOrgPreferences(other.organization.id)),
    signInEmailDomains: ["other.test"],
  });
  await b.signIn("admin@acme.test");
  await openPreferences();
  const domains = page.getByLabel("E-mail domains that may join at first sign-in");
  // What listing needs is said beside the field.
  expect(await page.locator(`#${await domains.getAttribute("aria-describedby")}`).innerText()).toContain("operator's approval");
  await domains.fill("acme.test, other.test");
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByText("other.test is already listed by another organization on this gateway").waitFor();
  expect(await page.content()).not.toContain("Other");
  expect((await b.rt.store.getOrgPreferences(b.orgId)).signInEmailDomains).toEqual([]);
  expect(b.pageErrors).toEqual([]);
}, 120_000);
