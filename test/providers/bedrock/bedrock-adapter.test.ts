/**
 * The platform request as the AWS SDK writes it: the model id one percent-encoded path
 * segment (`:` and the `/` of an ARN included: a non-greedy label in
 * aws-sdk-js-v3's `se_InvokeModelCommand`), and that path encoded once more in the
 * canonical request SigV4 signs, as the SDK's signer does for every service but S3.
 */
import { expect, test } from "bun:test";
import { AwsV4Signer } from "aws4fetch";
import { bedrockAdapter } from "../../../src/providers/bedrock/bedrock-adapter.ts";
import { Catalog } from "../../../src/providers/catalog/catalog.ts";
import { targetFor } from "../../../src/providers/target.ts";

const PROFILE_ARN = "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0";

function target(model: string) {
  return targetFor({
    info: Catalog.builtIn().kind("bedrock"),
    baseUrl: "",
    credentials: { type: "aws", accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
    model,
    catalogModel: undefined,
    config: { id: "prv_bedrock", name: "bedrock", format: "bedrock", country: "US", settings: { region: "us-east-1" } },
  });
}

test("the model id is one encoded path segment, and the signed canonical path encodes it again", async () => {
  const body = { model: "x", max_tokens: 8, messages: [{ role: "user", content: "hi" }], stream: true };
  const req = await bedrockAdapter.request(target(PROFILE_ARN), body, { stream: true, headers: new Headers() });
  const url = new URL(req.url);
  expect(url.host).toBe("bedrock-runtime.us-east-1.amazonaws.com");
  expect(url.pathname).toBe(`/model/${encodeURIComponent(PROFILE_ARN)}/invoke-with-response-stream`);
  expect(req.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, /);
  const signer = new AwsV4Signer({
    url: req.url,
    method: "POST",
    headers: { "x-amz-content-sha256": req.headers["x-amz-content-sha256"] as string },
    body: req.body,
    accessKeyId: "AKIAIOSFODNN7EXAMPLE",
    secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    service: "bedrock",
    region: "us-east-1",
  });
  const canonicalPath = (await signer.canonicalString()).split("\n")[1];
  expect(canonicalPath).toBe(`/model/${encodeURIComponent(encodeURIComponent(PROFILE_ARN))}/invoke-with-response-stream`);
  // The body is the vendor's, less what the address says, plus the platform's version.
  const sent = JSON.parse(req.body as string);
  expect([sent.model, sent.stream, sent.anthropic_version]).toEqual([undefined, undefined, "bedrock-2023-05-31"]);
});
