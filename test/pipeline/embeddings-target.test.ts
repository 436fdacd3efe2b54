/** Whether a target can answer embeddings, decided before anything is sent: its provider's API, then what the catalog knows of its model. */
import { expect, test } from "bun:test";
import type { ApiError } from "../../src/lib/errors.ts";
import { callAdapter } from "../../src/pipeline/call-adapter.ts";
import { embeddingsAdapter } from "../../src/pipeline/embeddings-target.ts";
import type { ProviderKind } from "../../src/providers/catalog/provider-kinds.ts";
import { testCatalog, testTarget } from "../support/targets.ts";

const check = (kind: ProviderKind, model: string) => {
  const target = testTarget(kind, model);
  return embeddingsAdapter(target, callAdapter(target), testCatalog);
};

const refusal = (kind: ProviderKind, model: string): ApiError => {
  try {
    check(kind, model);
  } catch (err) {
    return err as ApiError;
  }
  throw new Error(`${model} was let through`);
};

test("an embeddings model, or one the catalog does not know, is let through", () => {
  for (const [kind, model] of [
    ["openai", "text-embedding-3-small"],
    ["mistral", "mistral-embed"],
    ["openai", "ft:text-embedding-3-small:acme::e1"],
    ["self-hosted", "nomic-embed-text"],
  ] as const)
    expect(check(kind, model)).toBeDefined();
});

test("a listed model that does not embed is 400 wrong_endpoint naming it and the vendor's embeddings models", () => {
  const err = refusal("openai", "gpt-4o");
  expect([err.status, err.code, err.param, err.details?.reason]).toEqual([400, "wrong_endpoint", "model", "not_an_embeddings_model"]);
  expect(err.message).toBe(
    "gpt-4o is not an embeddings model; use one of text-embedding-3-small, text-embedding-3-large, text-embedding-ada-002.",
  );
  expect(refusal("mistral", "mistral-large-latest").message).toContain("use one of mistral-embed");
  // A catalog chat model on an OpenAI-compatible server is the same model: refused alike.
  expect(refusal("custom", "gpt-4o").code).toBe("wrong_endpoint");
});

test("a vendor without an embeddings API is refused first, as before", () => {
  const err = refusal("anthropic", "claude-sonnet-4-5");
  expect([err.status, err.code]).toEqual([400, "wrong_endpoint"]);
  expect(err.message).toContain("has no embeddings API");
});
