/**
 * A gateway in process in front of the project's mock provider (in process too), which
 * knows it as two providers, `odd-msg` (the messages format) and `odd-chat` (chat
 * completions), and the helpers the stream and translation tests call it with. The tests
 * ask for the mock's fault steers by model (`odd-msg/msg.fault-stall`, docs/mock-provider.md):
 * a stream without its last event or its usage, an error event mid-way, an event whose
 * data is null, shapes no provider writes, split characters, a stall, a thinking phase of
 * pings only, an error event quoting the key it was sent.
 */
import { expect } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { UsageEvent } from "../../src/domain/types.ts";
import { faultNames } from "../../src/mock-provider/fault-plan.ts";
import { type InProcessGateway, startInProcessGateway } from "./in-process-gateway.ts";
import { startMockInProcess } from "./in-process.ts";
import { sseJson } from "./sse-text.ts";

export interface OddGateway {
  gw: InProcessGateway;
  post(path: string, body: object): Promise<Response>;
  /** A streamed chat call with a prompt of some 200 tokens. */
  chatStream(model: string, extra?: object): Promise<Response>;
  /** The data of each event of a finished stream, parsed (`[DONE]` as the string). */
  events(res: Response): Promise<unknown[]>;
  /** The usage rows of `model` so far, once the write-behind buffer has written them. */
  rows(model: string): Promise<UsageEvent[]>;
  /** The official client, over the gateway in process. */
  openai(): OpenAI;
  /** The messages format's official client, over the gateway in process. */
  anthropic(): Anthropic;
  stop(): Promise<void>;
}

export const PROMPT = "Tell me about the sea. ".repeat(40);

/** `env`: the gateway's own settings beside the test's (GW_MAX_ANSWER_BYTES, say). */
export async function startOddGateway(env: Record<string, string> = {}): Promise<OddGateway> {
  const mock = startMockInProcess();
  const gw = await startInProcessGateway({ logLevel: "error", env });
  const key = { key: gw.init.keyValue };
  const custom = { provider: "custom", apiKey: "k-1234567890", country: "US", scope: "organization" };
  // Each provider lists every fault its format knows, tagged by format (`msg.fault-stall`, `chat.fault-stall`) so the usage rows tell the two apart.
  for (const [name, format, baseUrl, family, tag] of [
    ["odd-msg", "messages", mock.url, "messages", "msg"],
    ["odd-chat", undefined, `${mock.url}/v1`, "chat", "chat"],
  ] as const) {
    const models = faultNames(family).map((fault) => `${tag}.${fault}`);
    expect((await gw.op(key, "provider.create", { ...custom, name, format, baseUrl, models })).status).toBe(200);
  }

  const post = (path: string, body: object) =>
    gw.handle(
      new Request(`${gw.origin}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${gw.init.keyValue}` },
        body: JSON.stringify(body),
      }),
    );
  return {
    gw,
    post,
    chatStream: (model, extra = {}) =>
      post("/v1/chat/completions", { model, stream: true, messages: [{ role: "user", content: PROMPT }], ...extra }),
    async events(res) {
      return sseJson(await res.text(), "keep");
    },
    async rows(model) {
      await gw.rt.usage.flush();
      return (await gw.rt.store.listUsageEvents(gw.init.organization.id)).filter((e) => e.model === model);
    },
    openai: () =>
      new OpenAI({
        baseURL: `${gw.origin}/v1`,
        apiKey: gw.init.keyValue,
        maxRetries: 0,
        fetch: (url, init) => gw.handle(new Request(url as string, init as RequestInit)),
      }),
    anthropic: () =>
      new Anthropic({
        baseURL: gw.origin,
        apiKey: gw.init.keyValue,
        maxRetries: 0,
        fetch: (url, init) => gw.handle(new Request(url as string, init as RequestInit)),
      }),
    async stop() {
      await gw.stop();
      await mock.stop();
    },
  };
}
