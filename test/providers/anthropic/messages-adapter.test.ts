/** Which of the caller's headers the messages adapter carries to the vendor. */
import { expect, test } from "bun:test";
import { messagesAdapter, vendorHeaders } from "../../../src/providers/anthropic/messages-adapter.ts";
import { Catalog } from "../../../src/providers/catalog/catalog.ts";
import { targetFor } from "../../../src/providers/target.ts";
import { messagesModelList } from "../../../src/mock-provider/messages-models.ts";

test("every anthropic-* header passes; gateway credentials and other headers do not", () => {
  const caller = new Headers({
    "x-api-key": "gw_live_callerkey",
    authorization: "Bearer gw_live_callerkey",
    "Anthropic-Beta": "tools-2024-05-16,prompt-caching-2024-07-31",
    "anthropic-dangerous-direct-browser-access": "true",
    "anthropic-version": "2024-10-22",
    "x-gw-provider-key": "sk-ant-per-request",
    "x-stainless-lang": "js",
    cookie: "gw_session=abc",
  });
  expect(vendorHeaders(caller)).toEqual({
    "anthropic-beta": "tools-2024-05-16,prompt-caching-2024-07-31",
    "anthropic-dangerous-direct-browser-access": "true",
    "anthropic-version": "2024-10-22",
  });
});

test("the version comes from anthropic-version, else msg-version, else the documented default", () => {
  expect(vendorHeaders(new Headers({ "msg-version": "2024-01-01" }))["anthropic-version"]).toBe("2024-01-01");
  expect(vendorHeaders(new Headers({ "msg-version": "2024-01-01", "anthropic-version": "2025-01-01" }))["anthropic-version"]).toBe(
    "2025-01-01",
  );
  expect(vendorHeaders(new Headers())).toEqual({ "anthropic-version": "2023-06-01" });
});

test("the upstream request carries the provider key, never the caller's gateway key", () => {
  const catalog = Catalog.builtIn();
  const target = targetFor({
    info: catalog.kind("anthropic"),
    baseUrl: "http://127.0.0.1:1",
    credentials: { type: "api-key", apiKey: "sk-ant-provider" },
    model: "claude-sonnet-4-5",
    catalogModel: undefined,
  });
  const req = messagesAdapter.request(
    target,
    { model: "x", max_tokens: 1, messages: [] },
    { stream: false, headers: new Headers({ "x-api-key": "gw_live_caller", "anthropic-beta": "b1" }) },
  );
  expect(req.headers).toEqual({
    "content-type": "application/json",
    "x-api-key": "sk-ant-provider",
    "anthropic-version": "2023-06-01",
    "anthropic-beta": "b1",
  });
  expect(JSON.parse(req.body!).model).toBe("claude-sonnet-4-5");
});

/** The vendor's configuration as the model list reads it: no model of its own. */
const modelListTarget = () =>
  targetFor({
    info: Catalog.builtIn().kind("anthropic"),
    baseUrl: "http://127.0.0.1:1",
    credentials: { type: "api-key", apiKey: "sk-ant-provider" },
    model: "",
    catalogModel: undefined,
  });

test("the model list asks for the vendor's largest page, so a list past its default 20 is read whole", async () => {
  const target = modelListTarget();
  const req = messagesAdapter.modelsRequest(target);
  const url = new URL(req.url);
  expect([url.pathname, url.searchParams.get("limit")]).toEqual(["/v1/models", "1000"]);
  // The page the mock (paging as the vendor does) answers that request holds every id of a list of 25.
  const ids = Array.from({ length: 25 }, (_, i) => `claude-model-${i}`);
  const page = (await messagesModelList(url.searchParams, ids).json()) as unknown;
  expect(messagesAdapter.parseModels(page)).toEqual(ids);
});

test("past the largest page, the next request continues after this page's last id, until the vendor has no more", async () => {
  const target = modelListTarget();
  const ids = Array.from({ length: 2500 }, (_, i) => `claude-model-${i}`);
  const read: string[] = [];
  let req = messagesAdapter.modelsRequest(target) as ReturnType<typeof messagesAdapter.nextModelsRequest>;
  while (req) {
    expect(req.headers).toMatchObject({ "x-api-key": "sk-ant-provider", "anthropic-version": "2023-06-01" });
    const page = (await messagesModelList(new URL(req.url).searchParams, ids).json()) as unknown;
    read.push(...messagesAdapter.parseModels(page));
    req = messagesAdapter.nextModelsRequest(target, page);
  }
  expect(read).toEqual(ids);
  // A page that says nothing of more, or more without a cursor, is the last.
  expect(messagesAdapter.nextModelsRequest(target, { data: [], has_more: false, last_id: "x" })).toBeNull();
  expect(messagesAdapter.nextModelsRequest(target, { data: [], has_more: true, last_id: null })).toBeNull();
  expect(new URL(messagesAdapter.nextModelsRequest(target, { has_more: true, last_id: "a b&c" })!.url).searchParams.get("after_id")).toBe(
    "a b&c",
  );
});
