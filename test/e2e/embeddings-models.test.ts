/**
 * `/v1/embeddings` with a model the catalog knows is not an embeddings model, through the
 * official OpenAI client: a 400 `wrong_endpoint` naming the model, before any provider is
 * called (a vendor with embeddings refused it, after the call was scanned and its rate
 * taken). A model the catalog does not know still goes through.
 */
import { expect, test } from "bun:test";
import OpenAI from "openai";
import { clientStackPerFile } from "../support/client-stack.ts";

const stack = clientStackPerFile({
  providers: [
    { provider: "mistral", apiKey: "mistral-key-123456", baseUrl: "{mock}/v1" },
    {
      provider: "azure-openai",
      name: "az",
      apiKey: "azure-key-1234567890",
      baseUrl: "{mock}",
      deployments: { "gpt-4o-mini": "team-chat", "text-embedding-3-small": "team-embed" },
    },
  ],
});

const upstreamCalls = async () => (await stack.mock.requests()).length;

for (const [model, vendor] of [
  ["gpt-4o", "openai"],
  ["openai/gpt-4o-mini", "openai"],
  ["mistral-large-latest", "mistral"],
  // An Azure deployment called by its own name, which the configuration maps from a chat model.
  ["az/team-chat", "openai"],
] as const) {
  test(`${model}: a chat model is a 400 naming it, and no provider is called`, async () => {
    const before = await upstreamCalls();
    const err = await stack.openai.embeddings.create({ model, input: "hello" }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.error).toMatchObject({ code: "wrong_endpoint", param: "model", details: { reason: "not_an_embeddings_model" } });
    expect(err.error.message).toContain(`${model.slice(model.indexOf("/") + 1)} is not an embeddings model`);
    // It says what would serve: the vendor's own embeddings models.
    expect(err.error.message).toContain(vendor === "mistral" ? "mistral-embed" : "text-embedding-3-small");
    expect(await upstreamCalls()).toBe(before);
  });
}

test("embeddings models are served, at the vendor and at an Azure deployment mapped from one", async () => {
  for (const model of ["text-embedding-3-small", "mistral-embed", "az/team-embed", "az/text-embedding-3-small"]) {
    const res = await stack.openai.embeddings.create({ model, input: "hello" });
    expect([model, res.data.length]).toEqual([model, 1]);
  }
  expect((await stack.mock.requests()).at(-1)?.path).toBe("/openai/deployments/team-embed/embeddings");
});

test("a model the catalog does not know (a fine-tune, a deployment nothing maps) goes through as before", async () => {
  for (const [model, path] of [
    ["openai/ft:text-embedding-3-small:acme::e1", "/v1/embeddings"],
    ["az/our-own-deployment", "/openai/deployments/our-own-deployment/embeddings"],
  ] as const) {
    const before = await upstreamCalls();
    const res = await stack.openai.embeddings.create({ model, input: "hello" });
    expect(res.data).toHaveLength(1);
    expect(await upstreamCalls()).toBe(before + 1);
    expect((await stack.mock.requests()).at(-1)?.path).toBe(path);
  }
});
