/** The mock answers Azure's deployment and v1 paths as Azure does: version (deployment paths) and key required, the prompt filter's verdict on chat answers. */
import { expect, test } from "bun:test";
import { SseDecoder } from "../../src/lib/sse.ts";
import { mockPerFile } from "../support/mock-per-file.ts";

const mock = mockPerFile();
const chat = (query: string, headers: Record<string, string>, stream = false) =>
  fetch(`${mock.url}/openai/deployments/prod-chat/chat/completions${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], stream, stream_options: { include_usage: true } }),
  });

test("a deployment call without api-version is a 400 naming it, before the key is looked at", async () => {
  const res = await chat("", {});
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("MissingApiVersionParameter");
});

test("a deployment call without a key is a 401", async () => {
  const res = await chat("?api-version=2024-10-21", {});
  expect(res.status).toBe(401);
  expect(((await res.json()) as { error: { message: string } }).error.message).toStartWith("Access denied");
});

test("a whole answer carries the prompt filter's verdict", async () => {
  const res = await chat("?api-version=2024-10-21", { "api-key": "azure-key" });
  const body = (await res.json()) as { model: string; prompt_filter_results: { prompt_index: number }[] };
  expect(body.model).toBe("gpt-4o");
  expect(body.prompt_filter_results[0]?.prompt_index).toBe(0);
});

test("a stream opens with the verdict alone: no choices, an empty model and id", async () => {
  const res = await chat("?api-version=2024-10-21", { "api-key": "azure-key" }, true);
  const d = new SseDecoder();
  const blocks = [...d.push(new Uint8Array(await res.arrayBuffer())), ...d.end().blocks];
  const chunks = blocks.map((b) => b.event?.data).filter((x): x is string => x !== undefined && x !== "[DONE]");
  const first = JSON.parse(chunks[0] as string);
  expect([first.model, first.id, first.choices]).toEqual(["", "", []]);
  expect(first.prompt_filter_results).toHaveLength(1);
  expect(JSON.parse(chunks[1] as string).model).toBe("gpt-4o");
});

test("OpenAI's own paths are not held to it", async () => {
  const res = await fetch(`${mock.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer k" },
    body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
  });
  expect(res.status).toBe(200);
  expect("prompt_filter_results" in ((await res.json()) as object)).toBe(false);
});

test("a v1 call needs no api-version, but its key; it answers as the deployment's model, with the filter's verdict", async () => {
  const v1 = (headers: Record<string, string>, model: string) =>
    fetch(`${mock.url}/openai/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
    });
  expect((await v1({}, "deploy-gpt-4o")).status).toBe(401);
  const body = (await (await v1({ "api-key": "azure-key" }, "deploy-gpt-4o")).json()) as {
    model: string;
    prompt_filter_results: unknown[];
  };
  // Azure answers with the deployed model's name; the mock reads it from a deployment named deploy-<model>.
  expect(body.model).toBe("gpt-4o");
  expect(body.prompt_filter_results).toHaveLength(1);
  expect(((await (await v1({ "api-key": "azure-key" }, "prod-chat")).json()) as { model: string }).model).toBe("prod-chat");
});
