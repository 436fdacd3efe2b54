/**
 * The adapter contract, run over every adapter and the kinds whose specs address it
 * differently: each must shape its request (address, credential, the provider's model
 * id, nothing of the caller's gateway key), and what comes back must read the same way
 * whatever the adapter: the answer's model and usage, the stream's model, answer pieces
 * and usage, and a provider's failure mapped to the gateway's error without its key.
 * A new adapter or kind is one more entry in CASES. Answers come from the project's
 * mock provider, in this process.
 */
import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { type SseBlock, SseDecoder } from "../../src/lib/sse.ts";
import { messagesWire } from "../../src/providers/anthropic/messages-wire.ts";
import type { ProviderAdapter, UpstreamRequest } from "../../src/providers/adapter.ts";
import { PROVIDER_KINDS_INFO, type ProviderKind } from "../../src/providers/catalog/provider-kinds.ts";
import type { ProviderCredentials } from "../../src/providers/credentials.ts";
import { openAiWire } from "../../src/providers/openai-compatible/openai-wire.ts";
import { adapterFor } from "../../src/providers/registry.ts";
import { type Target, type TargetConfig, targetFor } from "../../src/providers/target.ts";
import { sendUpstream, upstreamFailure } from "../../src/providers/upstream.ts";
import { type CallUsage, emptyUsage, type WireFormat } from "../../src/providers/wire-format.ts";
import { mockPerFile } from "../support/mock-per-file.ts";
import { isSameModel } from "../../src/pipeline/substitution.ts";

const mock = mockPerFile();

const CALLER_KEY = "gw_live_callers_own_gateway_key";

interface Case {
  name: string;
  kind: ProviderKind;
  /** The model id as the provider knows it; the steering words of the mock (`fail-429`) are put in its place. */
  model: string;
  credentials: ProviderCredentials;
  /** The configuration's address as a path on the mock ("" for the mock's origin). */
  basePath: string;
  settings?: Record<string, unknown>;
  format?: "chat" | "messages";
  /** Where the call must go on the mock, path and query. */
  path(model: string, stream: boolean): string;
  /** The credential headers the provider must get, or "sigv4" for a signed request. */
  auth: Record<string, string> | "sigv4";
  /** Where a caller's body names the model (the platform names it in the address instead). */
  modelInBody: boolean;
  /** The model the answer names, where the provider names it otherwise than it was addressed (the platform: the vendor's id). */
  answeredAs?: string;
}

const CASES: Case[] = [
  {
    name: "a chat-completions vendor",
    kind: "openai",
    model: "gpt-4o-mini",
    credentials: { type: "api-key", apiKey: "sk-vendor-provider-key-1234" },
    basePath: "/v1",
    path: () => "/v1/chat/completions",
    auth: { authorization: "Bearer sk-vendor-provider-key-1234" },
    modelInBody: true,
  },
  {
    name: "the chat-completions platform that addresses deployments",
    kind: "azure-openai",
    model: "gpt-4o",
    credentials: { type: "api-key", apiKey: "azure-provider-key-5678" },
    basePath: "",
    settings: { apiVersion: "2024-06-01", deployments: { "gpt-4o": "prod 4o" } },
    path: (model) => `/openai/deployments/${model === "gpt-4o" ? "prod%204o" : model}/chat/completions?api-version=2024-06-01`,
    auth: { "api-key": "azure-provider-key-5678" },
    modelInBody: true,
  },
  {
    name: "a self-hosted server without a key",
    kind: "self-hosted",
    model: "llama3.1:8b",
    credentials: { type: "api-key", apiKey: "" },
    basePath: "/v1",
    settings: {},
    path: () => "/v1/chat/completions",
    auth: {},
    modelInBody: true,
  },
  {
    name: "the messages vendor",
    kind: "anthropic",
    model: "claude-sonnet-4-5",
    credentials: { type: "api-key", apiKey: "sk-ant-provider-key-9012" },
    basePath: "",
    path: () => "/v1/messages",
    auth: { "x-api-key": "sk-ant-provider-key-9012" },
    modelInBody: true,
  },
  {
    name: "a custom API that chose the messages format",
    kind: "custom",
    model: "house-model",
    credentials: { type: "api-key", apiKey: "custom-provider-key-3456" },
    basePath: "",
    format: "messages",
    path: () => "/v1/messages",
    auth: { "x-api-key": "custom-provider-key-3456" },
    modelInBody: true,
  },
  {
    name: "the cloud platform with AWS credentials",
    kind: "bedrock",
    model: "anthropic.claude-sonnet-4-5-v1:0",
    credentials: { type: "aws", accessKeyId: "AKIAEXAMPLEKEYID", secretAccessKey: "aws-secret-access-key-7890" },
    basePath: "",
    settings: { region: "eu-west-1" },
    path: (model, stream) => `/model/${encodeURIComponent(model)}/${stream ? "invoke-with-response-stream" : "invoke"}`,
    auth: "sigv4",
    modelInBody: false,
    answeredAs: "claude-sonnet-4-5",
  },
  {
    name: "the cloud platform with a platform API key",
    kind: "bedrock",
    model: "anthropic.claude-sonnet-4-5-v1:0",
    credentials: { type: "api-key", apiKey: "bedrock-api-key-2468" },
    basePath: "",
    settings: { region: "us-east-1" },
    path: (model, stream) => `/model/${encodeURIComponent(model)}/${stream ? "invoke-with-response-stream" : "invoke"}`,
    auth: { authorization: "Bearer bedrock-api-key-2468" },
    modelInBody: false,
    answeredAs: "claude-sonnet-4-5",
  },
];

function targetOf(c: Case, model = c.model): Target {
  const info = PROVIDER_KINDS_INFO[c.kind];
  const config: TargetConfig = {
    id: "prv_contract",
    name: `contract-${c.kind}`,
    format: c.format ?? info.format,
    country: info.country ?? "DE",
    settings: c.settings ?? {},
  };
  return targetFor({ info, baseUrl: `${mock.url}${c.basePath}`, credentials: c.credentials, model, catalogModel: undefined, config });
}

/** What a caller sends, in the adapter's wire format, naming the model by another name than the provider's (as `name/model` does). */
function callerBody(adapter: ProviderAdapter, stream: boolean): Record<string, unknown> {
  const messages = [{ role: "user", content: "Say hello to the contract test." }];
  if (adapter.wire === "chat")
    return { model: "contract/alias", messages, max_tokens: 32, stream, ...(stream ? { stream_options: { include_usage: true } } : {}) };
  return { model: "contract/alias", messages, max_tokens: 32, stream };
}

const wireOf = (adapter: ProviderAdapter): WireFormat => (adapter.wire === "chat" ? openAiWire : messagesWire);

const callerHeaders = () =>
  new Headers({ authorization: `Bearer ${CALLER_KEY}`, "x-api-key": CALLER_KEY, "anthropic-version": "2023-06-01" });

async function shaped(
  c: Case,
  stream: boolean,
  model = c.model,
): Promise<{ target: Target; adapter: ProviderAdapter; req: UpstreamRequest }> {
  const target = targetOf(c, model);
  const adapter = adapterFor(target.format);
  const req = await adapter.request(target, callerBody(adapter, stream), { stream, headers: callerHeaders() });
  return { target, adapter, req };
}

async function send(req: UpstreamRequest) {
  return sendUpstream(req, { caller: { signal: new AbortController().signal }, timeoutMs: 10_000, providerName: "contract" });
}

/** Every event of a provider's stream, as the gateway reads it: the adapter's own frames turned into SSE first. */
async function streamUsage(adapter: ProviderAdapter, wire: WireFormat, body: ReadableStream<Uint8Array>) {
  const sse = adapter.sseBody ? adapter.sseBody(body) : body;
  const decoder = new SseDecoder();
  const usage: CallUsage = emptyUsage();
  let modelNamed = 0;
  let answerPieces = 0;
  const read = (blocks: SseBlock[]) => {
    for (const b of blocks) {
      if (!b.event) continue;
      if (wire.fromEvent(b.event, usage)) modelNamed++;
      if (wire.carriesAnswer(b.event)) answerPieces++;
    }
  };
  for await (const chunk of sse) read(decoder.push(chunk));
  const end = decoder.end();
  read(end.blocks);
  return { usage, modelNamed, answerPieces, clean: end.clean };
}

const secretsOf = (c: ProviderCredentials) => (c.type === "api-key" ? [c.apiKey] : [c.secretAccessKey]);

for (const c of CASES) {
  describe(`adapter contract: ${c.name} (${c.kind})`, () => {
    test("shapes the request: the kind's address, the provider's credential and model id, nothing of the caller's key", async () => {
      for (const stream of [false, true]) {
        const { req } = await shaped(c, stream);
        expect(req.method).toBe("POST");
        expect(req.url).toBe(`${mock.url}${c.path(c.model, stream)}`);
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v]));
        expect(JSON.stringify(headers)).not.toContain(CALLER_KEY);
        if (c.auth === "sigv4") expect(headers.authorization).toStartWith("AWS4-HMAC-SHA256 Credential=AKIAEXAMPLEKEYID/");
        else {
          expect(headers).toMatchObject(c.auth);
          if (Object.keys(c.auth).length === 0)
            for (const h of ["authorization", "api-key", "x-api-key"]) expect(headers[h]).toBeUndefined();
        }
        const sent = JSON.parse(String(req.body)) as Record<string, unknown>;
        if (c.modelInBody) expect(sent.model).toBe(c.model);
        else expect(sent.model).toBeUndefined();
        expect(sent.messages).toEqual([{ role: "user", content: "Say hello to the contract test." }]);
      }
    });

    test("parses the answer: the model that answered and the usage", async () => {
      const { adapter, req } = await shaped(c, false);
      const up = await send(req);
      try {
        expect(up.response.status).toBe(200);
        const body = (await up.response.json()) as Record<string, unknown>;
        const wire = wireOf(adapter);
        for (const member of wire.bodyMembers) expect(body).toHaveProperty(member);
        const usage = wire.fromBody(body);
        expect(usage.model).toBe(c.answeredAs ?? c.model);
        // However the provider names it, the gateway takes it for the model asked (no substitution).
        expect(isSameModel(c.model, usage.model)).toBe(true);
        expect(usage.promptTokens).toBeGreaterThan(0);
        expect(usage.completionTokens).toBeGreaterThan(0);
      } finally {
        up.done();
      }
      const seen = (await mock.requests()) as { url: string }[];
      expect(seen.at(-1)?.url).toBe(c.path(c.model, false));
    });

    test("parses the stream: the model named once, answer pieces counted, the same usage as the whole answer", async () => {
      const whole = await shaped(c, false);
      const wholeUp = await send(whole.req);
      const wholeUsage = wireOf(whole.adapter).fromBody((await wholeUp.response.json()) as Record<string, unknown>);
      wholeUp.done();

      const { adapter, req } = await shaped(c, true);
      const up = await send(req);
      try {
        expect(up.response.status).toBe(200);
        const read = await streamUsage(adapter, wireOf(adapter), up.response.body as ReadableStream<Uint8Array>);
        expect(read.clean).toBe(true);
        expect(read.modelNamed).toBe(1);
        expect(read.answerPieces).toBeGreaterThan(0);
        // The finish reason is read from whole answers (and messages streams); the usage must match.
        const { finishReason: _streamed, ...streamedUsage } = read.usage;
        const { finishReason: _whole, ...answeredUsage } = wholeUsage;
        expect(streamedUsage).toEqual(answeredUsage);
      } finally {
        up.done();
      }
    });

    test("maps a provider's failure to the gateway's error, without the provider's key", async () => {
      const failing = (status: number) => (c.kind === "bedrock" ? `anthropic.fail-${status}` : `fail-${status}`);
      const expected: [number, number, string][] = [
        [400, 400, "provider_error"],
        [401, 401, "provider_error"],
        [429, 429, "rate_limit_exceeded"],
        [500, 502, "provider_error"],
        [503, 503, "provider_unavailable"],
      ];
      for (const [status, gatewayStatus, code] of expected) {
        const { target, req } = await shaped(c, false, failing(status));
        const up = await send(req);
        expect(up.response.status).toBe(status);
        const err: ApiError = await upstreamFailure(up.response, target.providerName, secretsOf(target.credentials));
        up.done();
        expect([status, err.status, err.code as string]).toEqual([status, gatewayStatus, code]);
        expect(err.message).toContain(`mock provider failure ${status}`);
        for (const secret of secretsOf(c.credentials)) if (secret) expect(err.message).not.toContain(secret);
      }
    });

    test("the mock fails in the vendor's own envelope, and the gateway reads its message and name from it", async () => {
      const failing = (status: number) => (c.kind === "bedrock" ? `anthropic.fail-${status}` : `fail-${status}`);
      // The messages vendor's type per status (anthropic-sdk-typescript, src/resources/shared.ts); the
      // platform's exception per status (Bedrock InvokeModel API reference, Errors).
      const expected: [number, string, string][] = [
        [400, "invalid_request_error", "ValidationException"],
        [429, "rate_limit_error", "ThrottlingException"],
        [500, "api_error", "InternalServerException"],
        [503, "api_error", "ServiceUnavailableException"],
        [529, "overloaded_error", "InternalServerException"],
      ];
      for (const [status, messagesType, exception] of expected) {
        const { target, req } = await shaped(c, false, failing(status));
        const up = await send(req);
        const seen = up.response.clone();
        const err = await upstreamFailure(up.response, target.providerName, secretsOf(target.credentials));
        up.done();
        const body = (await seen.json()) as Record<string, any>;
        if (c.kind === "bedrock") {
          // `{"message"}` and the exception's name in a header, nothing of the messages envelope.
          expect([status, seen.headers.get("x-amzn-errortype")]).toEqual([
            status,
            `${exception}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
          ]);
          expect(Object.keys(body)).toEqual(["message"]);
          expect(err.message).toContain(`${exception}: mock provider failure ${status}`);
        } else if ((c.format ?? PROVIDER_KINDS_INFO[c.kind].format) === "messages") {
          expect([status, body.type, body.error?.type]).toEqual([status, "error", messagesType]);
          expect(body.request_id).toStartWith("req_");
          expect(err.message).toContain(`mock provider failure ${status}`);
        } else {
          expect(typeof body.error?.message).toBe("string");
          expect(err.message).toContain(`mock provider failure ${status}`);
        }
      }
    });

    test("writes an error into a started stream as the format's clients read it", async () => {
      const { adapter } = await shaped(c, true);
      const decoder = new SseDecoder();
      const blocks = decoder.push(wireOf(adapter).errorEvent(new ApiError(502, "provider_error", "the provider cut the stream")));
      expect(decoder.idle).toBe(true);
      expect(blocks).toHaveLength(1);
      const event = blocks[0]?.event;
      expect(event?.event ?? null).toBe(adapter.wire === "chat" ? null : "error");
      const data = JSON.parse(event?.data ?? "null") as { error?: { message?: string } };
      expect(data.error?.message).toBe("the provider cut the stream");
    });
  });
}
