/** Which unrouted paths say why they are not offered: each family and everything under it, and nothing the gateway serves or no client calls. */
import { expect, test } from "bun:test";
import { unofferedEndpoint } from "../../../src/http/surfaces/unoffered-endpoints.ts";

test("each family, its sub-paths and a trailing slash are explained", () => {
  expect(unofferedEndpoint("/v1/messages/batches")).toContain("Message batches are not offered");
  expect(unofferedEndpoint("/v1/messages/batches/msgbatch_1/results")).toContain("Message batches are not offered");
  expect(unofferedEndpoint("/v1/batches/")).toContain("Batch API is not offered");
  expect(unofferedEndpoint("/v1/files/file-1/content")).toContain("File uploads are not offered");
  expect(unofferedEndpoint("/v1/responses/resp_1/input_items")).toContain("Stored responses cannot be retrieved");
  expect(unofferedEndpoint("/v1/threads/t/runs")).toContain("Assistants API is not offered");
  expect(unofferedEndpoint("/v1/audio/speech")).toContain("/v1/audio is not offered");
  expect(unofferedEndpoint("/v1/chat/completions/chatcmpl-1/messages")).toContain("Stored chat completions cannot be retrieved");
  expect(unofferedEndpoint("/v1/conversations/conv_1/items")).toContain("Conversation objects are not offered");
});

test("served paths, look-alikes and unknown paths are not", () => {
  for (const path of ["/v1/responses", "/v1/chat/completions", "/v1/messages", "/v1/filesystem", "/v1/completions-x", "/nowhere", "/"])
    expect(unofferedEndpoint(path)).toBeNull();
  expect(unofferedEndpoint("/v1/completions")).toContain("use POST /v1/chat/completions");
});
