/** The mock provider's fault steers (`fault-<name>`, `/fault-oversized-<MiB>`): what a client of the mock sees. */
import { describe, expect, test } from "bun:test";
import { faultNames, faultPlan, faultSteer } from "../../src/mock-provider/fault-plan.ts";
import { mockPerFile } from "../support/mock-per-file.ts";

const mock = mockPerFile();

const post = (path: string, body: object, init: RequestInit = {}) =>
  fetch(`${mock.url}${path}`, {
    method: "POST",
    headers: { "x-api-key": "sk-mock-quoted-0000", "content-type": "application/json", "anthropic-version": "2023-06-01" },
    body: JSON.stringify(body),
    ...init,
  });
const chat = (model: string, init: RequestInit = {}) =>
  post("/v1/chat/completions", { model, stream: true, messages: [{ role: "user", content: "hi" }] }, init);
const messages = (model: string) =>
  post("/v1/messages", { model, max_tokens: 10, stream: true, messages: [{ role: "user", content: "hi" }] });

/** The bodies of a body's writes, as the client received them. */
async function writes(res: Response): Promise<string[]> {
  const out: string[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of res.body as ReadableStream<Uint8Array>) out.push(decoder.decode(chunk, { stream: true }));
  return out;
}

describe("the steer", () => {
  test("is the model's last word, after a start or a dot or slash, and only a known name has a plan", () => {
    expect(faultSteer("fault-stall")).toBe("stall");
    expect(faultSteer("msg.fault-no-usage")).toBe("no-usage");
    expect(faultSteer("gpt-4o")).toBeUndefined();
    expect(faultSteer("default-stall")).toBeUndefined();
    expect(faultPlan("stall", "chat", { model: "m", key: "k" })?.end).toBe("hold");
    expect(faultPlan("no-close", "chat", { model: "m", key: "k" })).toBeUndefined();
    expect(faultNames("messages")).toContain("fault-no-close");
  });

  test("an unknown fault is a 400 in the route's envelope that lists the ones it knows", async () => {
    const res = await chat("fault-no-close");
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { message: string } };
    expect(error.message).toContain('no fault "no-close"');
    expect(error.message).toContain("fault-no-usage");
    const msg = await messages("fault-nope");
    expect(msg.status).toBe(400);
    expect(await msg.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });

  test("an end user `fault-<name>` steers a call whose model stays one the catalog prices", async () => {
    const res = await post("/v1/chat/completions", { model: "gpt-4o", user: "fault-limited", messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(429);
    const msg = await post("/v1/messages", {
      model: "claude-sonnet-4-5",
      max_tokens: 5,
      metadata: { user_id: "fault-refuses" },
      messages: [],
    });
    expect(msg.status).toBe(400);
    expect(await msg.text()).toContain("roles must alternate");
  });

  test("without a steer the mock answers as it always did", async () => {
    const text = await (await chat("gpt-4o")).text();
    expect(text).toContain("data: [DONE]");
  });
});

describe("stream faults", () => {
  test("a cut chat stream: text, then the end of the body with no finish reason, usage or [DONE]", async () => {
    const text = (await writes(await chat("fault-cut"))).join("");
    expect(text).toContain('"content":"The sea"');
    expect(text).not.toContain('finish_reason":"stop');
    expect(text).not.toContain("[DONE]");
  });

  test("a key error quotes the key the mock was sent, in two writes split inside the key", async () => {
    expect(await (await chat("fault-key-error")).text()).toContain("key sk-mock-quoted-0000 was revoked mid-way");
    const pieces = faultPlan("key-error", "chat", { model: "m", key: "sk-k" })?.pieces.filter((p) => typeof p === "string");
    expect(pieces?.some((p) => p.endsWith("key sk-k"))).toBe(true);
  });

  test("split characters: writes cut inside the ø and inside the emoji, with a pause between so they leave apart", async () => {
    expect(await (await messages("fault-split-chars")).text()).toContain("Smørrebrød 🥪");
    const pieces = faultPlan("split-chars", "messages", { model: "m", key: "k" })?.pieces ?? [];
    const bytes = pieces.filter((p): p is Uint8Array => p instanceof Uint8Array);
    expect(bytes.map((b) => b.at(-1))).toEqual([0xc3, expect.any(Number), expect.any(Number)]);
    expect(bytes[1]?.at(-2)).toBe(0xf0);
    expect(pieces.filter((p) => !(p instanceof Uint8Array))).toHaveLength(2);
  });

  test("a stall sends its first events and holds the body open until the client leaves, which the mock counts", async () => {
    const client = new AbortController();
    const res = await chat("fault-stall", { signal: client.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"content":"The "');
    client.abort();
    while (((await mock.stats()).abandonedByModel["fault-stall"] ?? 0) < 1) await Bun.sleep(5);
  });
});

describe("answer and body faults", () => {
  test("a refusal and a rate limit in the provider's own envelopes", async () => {
    const refused = await messages("fault-refuses");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { message: "messages: roles must alternate" } });
    const limited = await chat("fault-limited");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
  });

  test("a long answer is the same document declared, chunked or gzipped", async () => {
    const declared = await chat("fault-long-answer");
    expect(Number(declared.headers.get("content-length"))).toBeGreaterThan(100_000);
    const chunked = await chat("fault-long-answer-chunked");
    expect(chunked.headers.get("content-length")).toBeNull();
    const gzip = await chat("fault-long-answer-gzip");
    // The same document but for the model it names.
    const texts = [await declared.text(), await chunked.text(), await gzip.text()].map((t) => t.replace(/"model":"[^"]+"/, '"model":"m"'));
    expect(texts[1]).toBe(texts[0] as string);
    expect(texts[2]).toBe(texts[0] as string);
    expect(JSON.parse(texts[0] as string).usage.completion_tokens).toBe(20_000);
  });

  test("no body is a 204 with nothing after it, whatever was asked", async () => {
    const res = await chat("fault-no-body");
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
  });

  test("a hang sends nothing on any route, embeddings included, until the client leaves", async () => {
    const before = (await mock.stats()).abandonedByModel["fault-hang"] ?? 0;
    const client = new AbortController();
    const answered = post("/v1/embeddings", { model: "fault-hang", input: "hi" }, { signal: client.signal }).catch(() => "left");
    while (!(await mock.requests()).some((r) => r.path === "/v1/embeddings" && r.body?.model === "fault-hang")) await Bun.sleep(5);
    client.abort();
    expect(await answered).toBe("left");
    while (((await mock.stats()).abandonedByModel["fault-hang"] ?? 0) <= before) await Bun.sleep(5);
  });
});

test("a base URL under /fault-oversized-<MiB> answers a model list that large, made as read and counted", async () => {
  const res = await fetch(`${mock.url}/fault-oversized-1/v1/models`);
  const list = (await res.json()) as { data: { id: string }[] };
  expect(list.data.at(-1)?.id).toBe("last");
  expect((await mock.stats()).oversizedBytes).toBeGreaterThanOrEqual(1024 * 1024);
  const other = await post("/fault-oversized-1/v1/chat/completions", { model: "gpt-4o", messages: [] });
  expect(other.status).toBe(404);
});
