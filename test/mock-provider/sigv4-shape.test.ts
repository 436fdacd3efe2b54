/** The mock's SigV4 shape check: a well-signed platform request passes; each missing or wrong part is a 403 naming it. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AwsClient } from "aws4fetch";
import { type RunningMock, startMockProvider } from "../support/gateway-process.ts";

let mock: RunningMock;

beforeAll(async () => {
  mock = await startMockProvider();
});

afterAll(() => mock.stop());

const body = JSON.stringify({ anthropic_version: "bedrock-2023-05-31", max_tokens: 32, messages: [{ role: "user", content: "hi" }] });
const sha256 = (text: string) => new Bun.CryptoHasher("sha256").update(text).digest("hex");
const path = () => `${mock.url}/model/${encodeURIComponent("anthropic.claude-3-5-haiku-20241022-v1:0")}/invoke`;

/** Headers of a request signed the way the gateway signs it (aws4fetch, service bedrock, content hash signed). */
async function signedHeaders(): Promise<Record<string, string>> {
  const aws = new AwsClient({
    accessKeyId: "AKIAIOSFODNN7EXAMPLE",
    secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    service: "bedrock",
    region: "us-east-1",
  });
  const signed = await aws.sign(path(), {
    method: "POST",
    headers: { "content-type": "application/json", "x-amz-content-sha256": sha256(body) },
    body,
  });
  return Object.fromEntries(signed.headers);
}

async function send(headers: Record<string, string>, payload = body) {
  const res = await fetch(path(), { method: "POST", headers, body: payload });
  return { status: res.status, body: (await res.json()) as { message?: string; type?: string } };
}

const without = (h: Record<string, string>, name: string) => Object.fromEntries(Object.entries(h).filter(([k]) => k !== name));

test("a request signed like the gateway's passes the check", async () => {
  const headers = await signedHeaders();
  expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, /);
  const r = await send(headers);
  expect(r.status).toBe(200);
  expect(r.body.type).toBe("message");
});

describe("rejected with 403", () => {
  test("no Authorization header", async () => {
    const r = await send(without(await signedHeaders(), "authorization"));
    expect(r.status).toBe(403);
    expect(r.body.message).toContain("AWS4-HMAC-SHA256");
  });

  test("an Authorization that is not an AWS4-HMAC-SHA256 Credential=... signature", async () => {
    const h = await signedHeaders();
    for (const authorization of [
      "Basic dXNlcjpwYXNz",
      h.authorization!.replace("AWS4-HMAC-SHA256", "AWS4-HMAC-SHA1"),
      h.authorization!.replace("/bedrock/", "/s3/"),
      h.authorization!.replace(/Signature=\w+/, "Signature=abc"),
    ]) {
      const r = await send({ ...h, authorization });
      expect(r.status).toBe(403);
      expect(r.body.message).toContain("neither a bearer token nor an AWS4-HMAC-SHA256 signature");
    }
  });

  test("no x-amz-date, or one outside the credential's day", async () => {
    const h = await signedHeaders();
    const missing = await send(without(h, "x-amz-date"));
    expect(missing.status).toBe(403);
    expect(missing.body.message).toContain("x-amz-date");
    const otherDay = await send({ ...h, "x-amz-date": "19990101T000000Z" });
    expect(otherDay.status).toBe(403);
    expect(otherDay.body.message).toContain("x-amz-date");
  });

  test("a content hash that is not the body's", async () => {
    const h = await signedHeaders();
    const wrongHash = await send({ ...h, "x-amz-content-sha256": sha256("something else") });
    expect(wrongHash.status).toBe(403);
    expect(wrongHash.body.message).toContain("x-amz-content-sha256");
    // The same signature over a body changed on the way.
    const tampered = await send(h, body.replace("hi", "ho"));
    expect(tampered.status).toBe(403);
    expect(tampered.body.message).toContain("x-amz-content-sha256");
  });

  test("the content hash left out of the signed headers", async () => {
    const h = await signedHeaders();
    const r = await send({
      ...h,
      authorization: h.authorization!.replace(/SignedHeaders=[^,]+/, "SignedHeaders=content-type;host;x-amz-date"),
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toContain("x-amz-content-sha256 is not among the signed headers");
  });
});

test("a Bedrock API key as a bearer token is the other accepted form", async () => {
  const r = await send({ "content-type": "application/json", authorization: "Bearer bedrock-api-key-123" });
  expect(r.status).toBe(200);
});
