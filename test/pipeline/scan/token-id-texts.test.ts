/** Embeddings token ids as the scanner reads them: decoded with the target's vocabulary, refused where they cannot be read. */
import { describe, expect, test } from "bun:test";
import { encode } from "gpt-tokenizer/encoding/cl100k_base";
import type { ApiError } from "../../../src/lib/errors.ts";
import { embeddingTexts } from "../../../src/pipeline/scan/request-texts.ts";
import { checkTargetVocabulary, MAX_TOKEN_IDS, targetVocabulary, tokenIdTexts } from "../../../src/pipeline/scan/token-id-texts.ts";
import { scanRequest } from "../../../src/pipeline/security-scan.ts";
import { testCatalog, testTarget } from "../../support/targets.ts";
import { PROVIDER_KINDS_INFO } from "../../../src/providers/catalog/provider-kinds.ts";
import { targetFor } from "../../../src/providers/target.ts";

const LEAKED_KEY = "ghp_Q7vLm2Rk9XwTz4Hn8Bc3Pd6Yf1Gs5Ja0KeWx";
const cl100k = targetVocabulary(testTarget("openai", "text-embedding-3-small"), testCatalog);

const thrown = (f: () => unknown): ApiError => {
  try {
    f();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error("did not throw");
};

describe("the target's vocabulary", () => {
  test("OpenAI's own embeddings models, at OpenAI or Azure, are read with cl100k", () => {
    expect(cl100k?.name).toBe("cl100k_base");
    expect(targetVocabulary(testTarget("azure-openai", "text-embedding-3-large"), testCatalog)?.name).toBe("cl100k_base");
  });

  test("another vendor's model, a model the catalog does not list, or an OpenAI name at another vendor has none", () => {
    for (const [kind, model] of [
      ["mistral", "mistral-embed"],
      ["openai", "ft:text-embedding-3-small:acme::x1"],
      ["self-hosted", "text-embedding-3-small"],
      ["custom", "text-embedding-3-small"],
    ] as const)
      expect([kind, model, targetVocabulary(testTarget(kind, model), testCatalog)]).toEqual([kind, model, undefined]);
    expect(targetVocabulary(undefined, testCatalog)).toBeUndefined();
  });

  test("an Azure deployment the catalog does not list reads ids with the model its configuration maps to it", () => {
    const azure = (model: string, deployments: Record<string, string>) =>
      targetFor({
        info: PROVIDER_KINDS_INFO["azure-openai"],
        baseUrl: "http://127.0.0.1:9",
        credentials: { type: "api-key", apiKey: "sk-test" },
        model,
        catalogModel: testCatalog.model(model),
        config: { id: "prv_1", name: "az", format: "chat", country: "US", settings: { deployments } },
      });
    expect(targetVocabulary(azure("team-embed", { "text-embedding-3-small": "team-embed" }), testCatalog)?.name).toBe("cl100k_base");
    // Mapped from nothing listed, or from two models of different vocabularies: not known, the ids refused as before.
    expect(targetVocabulary(azure("team-embed", {}), testCatalog)).toBeUndefined();
    expect(
      targetVocabulary(azure("team-embed", { "text-embedding-3-small": "team-embed", "gpt-4o": "team-embed" }), testCatalog),
    ).toBeUndefined();
    // A fallback to such a deployment reads the ids as the first target did.
    checkTargetVocabulary(
      { model: "m", input: [1, 2] },
      cl100k,
      azure("team-embed", { "text-embedding-3-large": "team-embed" }),
      testCatalog,
    );
  });

  test("a fallback target is refused for ids unless it reads them in the vocabulary they were scanned in; text passes", () => {
    const ids = { model: "text-embedding-3-small", input: [1, 2, 3] };
    const text = { model: "text-embedding-3-small", input: "hello" };
    checkTargetVocabulary(ids, cl100k, testTarget("azure-openai", "text-embedding-3-large"), testCatalog);
    for (const other of [testTarget("mistral", "mistral-embed"), testTarget("self-hosted", "text-embedding-3-small")]) {
      const err = thrown(() => checkTargetVocabulary(ids, cl100k, other, testCatalog));
      expect([err.status, err.details?.reason]).toEqual([400, "unknown_vocabulary"]);
      checkTargetVocabulary(text, cl100k, other, testCatalog);
    }
  });
});

describe("token-id inputs as texts", () => {
  test("each array of ids is one slot with its decoded text; a flat array is `input`", () => {
    const nested = embeddingTexts({ model: "m", input: [encode("first text"), encode("second")] }, cl100k);
    expect(nested.map((s) => [s.path, s.text, s.injection])).toEqual([
      ["input.0", "first text", false],
      ["input.1", "second", false],
    ]);
    expect(embeddingTexts({ model: "m", input: encode("one") }, cl100k).map((s) => [s.path, s.text])).toEqual([["input", "one"]]);
  });

  test("text input needs no vocabulary; other strings of the body are still read", () => {
    expect(tokenIdTexts({ input: ["a", "b"] }, undefined)).toEqual([]);
    expect(tokenIdTexts({ input: "a" }, undefined)).toEqual([]);
    expect(embeddingTexts({ model: "m", input: encode("x"), user: "u-1" }, cl100k).map((s) => s.path)).toEqual(["user", "input"]);
  });

  test("ids without a vocabulary are refused, naming why", () => {
    for (const input of [
      [1, 2],
      [[1], [2]],
    ]) {
      const err = thrown(() => embeddingTexts({ model: "mistral-embed", input }));
      expect([err.status, err.code, err.param, err.details?.reason]).toEqual([400, "invalid_request", "input", "unknown_vocabulary"]);
      expect(err.message).toContain("mistral-embed");
    }
  });

  test("ids that are not the vocabulary's are refused at their input; more than the limit in all is refused", () => {
    for (const [input, param] of [
      [[5, -1], "input"],
      [[[5], [1.5]], "input.1"],
      [[[5], [100_256]], "input.1"],
      [[Number.MAX_SAFE_INTEGER + 2], "input"],
      [[[5], [Number.NaN]], "input.1"],
      [[5, "five"], "input"],
      [[[5], 6], "input.1"],
    ] as const) {
      const err = thrown(() => tokenIdTexts({ input: input as unknown as number[] }, cl100k));
      expect([input, err.status, err.param, err.details?.reason]).toEqual([input, 400, param, "invalid_token_id"]);
    }
    const half = Array.from({ length: MAX_TOKEN_IDS / 2 }, () => 5);
    expect(tokenIdTexts({ input: [half, half] }, cl100k)).toHaveLength(2);
    const err = thrown(() => tokenIdTexts({ input: [half, half, [5]] }, cl100k));
    expect([err.status, err.details?.reason]).toEqual([400, "too_many_token_ids"]);
  });
});

describe("scanned under the policy", () => {
  const texts = (body: Record<string, unknown>) => embeddingTexts(body, cl100k);

  test("a credential in ids blocks as it would in text", () => {
    const asIds = thrown(() => scanRequest({ input: [encode("ok"), encode(`key ${LEAKED_KEY}`)] }, texts, "redact"));
    const asText = thrown(() => scanRequest({ input: ["ok", `key ${LEAKED_KEY}`] }, texts, "redact"));
    expect([asIds.code, asIds.param, asIds.headers]).toEqual([asText.code, asText.param, asText.headers]);
    expect(asIds.code).toBe("security_violation");
  });

  test("personal data is redacted in a copy, written back as the redacted text's ids; clean ids stay as sent", () => {
    const clean = encode("nothing here");
    const input = [clean, encode("mail jane.doe@corp-mail.example.com now")];
    const body = { input };
    const verdict = scanRequest(body, texts, "redact");
    expect(verdict.header).toBe("secret=0; injection=0; pii=1; redacted=1");
    expect(verdict.body.input).toEqual([clean, encode("mail [EMAIL_1] now")]);
    expect(body.input).toBe(input);
    expect(input[1]).toEqual(encode("mail jane.doe@corp-mail.example.com now"));
  });

  test("under `block`, personal data in ids blocks", () => {
    const err = thrown(() => scanRequest({ input: encode("mail jane.doe@corp-mail.example.com") }, texts, "block"));
    expect([err.code, err.param]).toEqual(["security_violation", "input"]);
  });
});
