/**
 * Webhook delivery through the egress fetch (the finding: a plain fetch posted signed
 * alerts to any address). A listener on loopback receives nothing from a refused
 * address; the refusal is recorded once, in words naming the setting, and not retried.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import type { Notification, WebhookDelivery } from "../../../src/domain/types.ts";
import { egressFetch } from "../../../src/lib/egress/egress-fetch.ts";
import { PRIVATE_EGRESS_SETTING, setEgressPolicy } from "../../../src/lib/egress/egress-policy.ts";
import { deliverWebhook } from "../../../src/services/alerts/webhook-delivery.ts";

let listener: ReturnType<typeof Bun.serve>;
let received = 0;
let records: WebhookDelivery[] = [];

beforeAll(() => {
  listener = Bun.serve({ port: 0, fetch: () => (received++, new Response(null, { status: 204 })) });
});
// The policy is the process's: each test starts from the default (private refused), whatever ran before.
beforeEach(() => setEgressPolicy({ allowPrivate: false }));

afterEach(() => {
  received = 0;
  records = [];
  setEgressPolicy({ allowPrivate: false });
});
afterAll(() => listener.stop(true));

const note: Notification = {
  id: "ntf_1",
  orgId: "org_1",
  kind: "test",
  severity: "info",
  title: "t",
  body: {},
  createdAt: 0,
};

const deliver = (url: string) =>
  deliverWebhook(
    {
      fetch: egressFetch,
      record: async (d) => {
        records.push(d);
      },
      sleep: async () => {},
      now: () => 0,
      attempts: 3,
      backoffMs: 1,
      timeoutMs: 5000,
    },
    url,
    "whsec_test",
    note,
  );

const refusedUrls = () => [
  `http://127.0.0.1:${listener.port}/hook`,
  `http://localhost:${listener.port}/hook`,
  `http://[::ffff:127.0.0.1]:${listener.port}/hook`,
  `http://0.0.0.0:${listener.port}/hook`,
  "http://169.254.169.254/latest/meta-data/",
  "http://metadata.google.internal/computeMetadata/v1/",
];

test("without the setting, loopback, 0.0.0.0 and metadata addresses receive nothing; each refusal is recorded once", async () => {
  for (const url of refusedUrls()) expect(await deliver(url)).toBe(false);
  expect(received).toBe(0);
  expect(records).toHaveLength(refusedUrls().length);
  expect(records.every((r) => r.attempt === 1 && r.status === null && r.error?.startsWith("refused:"))).toBe(true);
  expect(records[0]?.error).toContain(PRIVATE_EGRESS_SETTING);
  expect(records[4]?.error).toContain("never");
});

test("with the setting, loopback receives the alert; 0.0.0.0 and metadata addresses still receive nothing", async () => {
  setEgressPolicy({ allowPrivate: true });
  expect(await deliver(`http://127.0.0.1:${listener.port}/hook`)).toBe(true);
  expect(await deliver(`http://localhost:${listener.port}/hook`)).toBe(true);
  expect(received).toBe(2);
  for (const url of refusedUrls().slice(3)) expect(await deliver(url)).toBe(false);
  expect(received).toBe(2);
});
