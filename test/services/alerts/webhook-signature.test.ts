/**
 * The receiver's recipe of docs/analytics.md, written as a receiver would write it (Web
 * Crypto, not the gateway's own code): HMAC-SHA256 keyed with the secret exactly as shown
 * (`whsec_` included, its UTF-8 bytes) over `<x-gw-timestamp>.<body>`, hex, after `sha256=`;
 * compared in constant time; timestamps over 5 minutes old refused.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Notification, WebhookDelivery } from "../../../src/domain/types.ts";
import { deliverWebhook } from "../../../src/services/alerts/webhook-delivery.ts";
import { signWebhook, verifyWebhook } from "../../../src/services/alerts/webhook-signature.ts";

const secret = "whsec_Zm9vYmFyYmF6cXV4LXNlY3JldC1ieXRlcy0xMjM0NTY3ODkw";
const utf8 = new TextEncoder();

/** The documented recipe, step by step. */
async function receiverAccepts(headers: Headers, rawBody: string, nowS: number): Promise<boolean> {
  const timestamp = headers.get("x-gw-timestamp") ?? "";
  const given = headers.get("x-gw-signature") ?? "";
  if (!/^\d+$/.test(timestamp) || Math.abs(nowS - Number(timestamp)) > 300) return false;
  const key = await crypto.subtle.importKey("raw", utf8.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8.encode(`${timestamp}.${rawBody}`)));
  const expected = `sha256=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  // Constant time: every byte compared whatever the first difference.
  if (expected.length !== given.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return diff === 0;
}

let server: ReturnType<typeof Bun.serve>;
let posts: { headers: Headers; body: string }[];
let answers: number[];

beforeEach(() => {
  posts = [];
  answers = [];
  server = Bun.serve({
    port: 0,
    fetch: async (req) => (
      posts.push({ headers: req.headers, body: await req.text() }), new Response(null, { status: answers.shift() ?? 204 })
    ),
  });
});
afterEach(() => server.stop(true));

const note: Notification = {
  id: "ntf_1",
  orgId: "org_1",
  kind: "budget.threshold",
  severity: "warning",
  // Text beyond ASCII: the body's bytes are UTF-8 on the wire and in the signature alike.
  title: "Spend reached 90% of the monthly budget — 90.01% (€ and ü in a provider's name)",
  body: { month: "2026-11", threshold: 90 },
  createdAt: Date.UTC(2026, 10, 25, 9),
};

test("every post, the retried ones too, passes the documented recipe with the secret as shown", async () => {
  let t = Date.UTC(2026, 10, 25, 9);
  const records: WebhookDelivery[] = [];
  answers = [503];
  const delivered = await deliverWebhook(
    {
      fetch: (u, i) => fetch(u, i),
      record: async (d) => void records.push(d),
      // The retry waits: its post carries its own, later timestamp, still fresh when it arrives.
      sleep: async (ms) => void (t += ms + 400_000),
      now: () => t,
      attempts: 3,
      backoffMs: 1000,
      timeoutMs: 5000,
    },
    `http://127.0.0.1:${server.port}/hook`,
    secret,
    note,
  );
  expect(delivered).toBe(true);
  expect(posts).toHaveLength(2);
  for (const p of posts) {
    const sentAt = Number(p.headers.get("x-gw-timestamp"));
    expect(await receiverAccepts(p.headers, p.body, sentAt + 5)).toBe(true);
    expect(verifyWebhook(secret, p.headers, p.body, sentAt + 5)).toBe(true);
  }
  // The first post replayed after the retry's wait is stale; a changed body or another secret never passes.
  const [first] = posts;
  expect(await receiverAccepts(first!.headers, first!.body, Math.floor(t / 1000))).toBe(false);
  const sentAt = Number(first!.headers.get("x-gw-timestamp"));
  expect(await receiverAccepts(first!.headers, first!.body.replace("90", "50"), sentAt)).toBe(false);
  expect(JSON.parse(first!.body).title).toBe(note.title);
});

test("the secret is keyed as the text shown, not base64-decoded after its prefix", () => {
  const asShown = signWebhook(secret, 1_795_600_000, "{}");
  const h = new Headers({ "x-gw-timestamp": "1795600000", "x-gw-signature": asShown });
  expect(verifyWebhook(secret, h, "{}", 1_795_600_000)).toBe(true);
  expect(verifyWebhook(secret.slice("whsec_".length), h, "{}", 1_795_600_000)).toBe(false);
});
