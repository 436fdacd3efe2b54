/** The mock's messages-family model list pages as the vendor's does: 20 unless asked, an `after_id` cursor, 1 to 1000. */
import { expect, test } from "bun:test";
import { messagesModelList } from "../../src/mock-provider/messages-models.ts";
import { mockPerFile } from "../support/mock-per-file.ts";

const mock = mockPerFile();
const ids = Array.from({ length: 25 }, (_, i) => `claude-model-${i}`);
const page = async (query: string) => (await messagesModelList(new URLSearchParams(query), ids).json()) as Record<string, any>;

test("without a limit a page holds 20, and says there is more", async () => {
  const first = await page("");
  expect(first.data).toHaveLength(20);
  expect(first.data[0]).toEqual({ type: "model", id: "claude-model-0", display_name: "claude-model-0", created_at: expect.any(String) });
  expect([first.has_more, first.first_id, first.last_id]).toEqual([true, "claude-model-0", "claude-model-19"]);
});

test("after_id continues where the last page stopped", async () => {
  const next = await page("limit=10&after_id=claude-model-19");
  expect(next.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(20));
  expect(next.has_more).toBe(false);
});

test("a limit outside 1 to 1000 is a 400 in the vendor's envelope", async () => {
  for (const limit of ["0", "1001", "ten"]) {
    const res = messagesModelList(new URLSearchParams({ limit }), ids);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
  }
});

test("the mock serves it to a request in the vendor's form (the version header), and chat's list to others", async () => {
  const messages = await fetch(`${mock.url}/v1/models?limit=2`, { headers: { "anthropic-version": "2023-06-01", "x-api-key": "k" } });
  const body = (await messages.json()) as Record<string, unknown>;
  expect([body.has_more, (body.data as unknown[]).length]).toEqual([true, 2]);
  const chat = (await (await fetch(`${mock.url}/v1/models`, { headers: { authorization: "Bearer k" } })).json()) as Record<string, unknown>;
  expect(chat.object).toBe("list");
});

test("a base URL under /listing-<N> lists N made-up models, in pages", async () => {
  const first = await fetch(`${mock.url}/listing-1500/v1/models?limit=1000`, {
    headers: { "anthropic-version": "2023-06-01", "x-api-key": "k" },
  });
  const body = (await first.json()) as { data: { id: string }[]; has_more: boolean; last_id: string };
  expect([body.data.length, body.has_more, body.last_id]).toEqual([1000, true, "listed-1000"]);
  const rest = await fetch(`${mock.url}/listing-1500/v1/models?limit=1000&after_id=listed-1000`, {
    headers: { "anthropic-version": "2023-06-01", "x-api-key": "k" },
  });
  const last = (await rest.json()) as { data: { id: string }[]; has_more: boolean };
  expect([last.data.length, last.has_more, last.data.at(-1)?.id]).toEqual([500, false, "listed-1500"]);
});
