/**
 * The cloud platform (Amazon Bedrock) for `anthropic.*` models: InvokeModel and
 * InvokeModelWithResponseStream in the configured region, with the messages body
 * (minus model and stream, plus the platform's anthropic_version). Signed with SigV4
 * by aws4fetch, or authorized by a Bedrock API key as a bearer token.
 */
import { AwsClient } from "aws4fetch";
import type { CallOptions, ProviderAdapter, UpstreamRequest } from "../adapter.ts";
import { endpointUrl } from "../specs.ts";
import type { Target } from "../target.ts";
import { eventStreamToSse } from "./event-stream.ts";

const PLATFORM_ANTHROPIC_VERSION = "bedrock-2023-05-31";

export const bedrockAdapter = {
  wire: "messages",
  async request(t: Target, body: Record<string, unknown>, opts: CallOptions): Promise<UpstreamRequest> {
    // The registry gives this adapter the bedrock format, which only the bedrock kind speaks.
    if (t.kind !== "bedrock") throw new Error(`the bedrock adapter was handed a ${t.kind} target`);
    const { model: _model, stream: _stream, ...rest } = body;
    const beta = opts.headers.get("anthropic-beta");
    const payload = JSON.stringify({
      anthropic_version: PLATFORM_ANTHROPIC_VERSION,
      ...rest,
      ...(beta ? { anthropic_beta: beta.split(",").map((b) => b.trim()) } : {}),
    });
    const url = endpointUrl(t, `model/${encodeURIComponent(t.model)}/${opts.stream ? "invoke-with-response-stream" : "invoke"}`);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: opts.stream ? "application/vnd.amazon.eventstream" : "application/json",
    };
    if (t.credentials.type === "api-key")
      return { url, method: "POST", headers: { ...headers, authorization: `Bearer ${t.credentials.apiKey}` }, body: payload };
    const hash = new Bun.CryptoHasher("sha256").update(payload).digest("hex");
    const aws = new AwsClient({
      accessKeyId: t.credentials.accessKeyId,
      secretAccessKey: t.credentials.secretAccessKey,
      sessionToken: t.credentials.sessionToken,
      service: "bedrock",
      region: t.settings.region,
    });
    const signed = await aws.sign(url, { method: "POST", headers: { ...headers, "x-amz-content-sha256": hash }, body: payload });
    return { url: signed.url, method: "POST", headers: Object.fromEntries(signed.headers), body: payload };
  },
  sseBody: (body: ReadableStream<Uint8Array>, maxEventBytes?: number) => body.pipeThrough(eventStreamToSse(maxEventBytes)),
} satisfies ProviderAdapter;
