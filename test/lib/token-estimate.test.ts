import { describe, expect, test } from "bun:test";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { encode as cl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countTextTokens, estimatePromptTokens, promptTokenBound, vocabularyOfModel } from "../../src/lib/token-estimate.ts";

test("counts text with the tokenizer, plus message framing and images", () => {
  const one = estimatePromptTokens([{ role: "user", content: "Hello, world! How are you doing today?" }]);
  expect(one).toBe(3 + 4 + 10);
  const parts = estimatePromptTokens([
    {
      role: "user",
      content: [
        { type: "text", text: "Hello, world! How are you doing today?" },
        { type: "image_url", image_url: { url: "data:..." } },
      ],
    },
  ]);
  expect(parts).toBe(one + 85);
  expect(estimatePromptTokens([])).toBe(3);
});

describe("special-token look-alikes are counted as plain text", () => {
  const SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|im_sep|>", "<|endofprompt|>", "<|fim_prefix|>"];

  test("the tokenizer's default refuses them, which is why the gateway must not use it", () => {
    expect(() => countTokens("a <|endoftext|> b")).toThrow("Disallowed special token");
  });

  for (const special of SPECIALS) {
    test(`${special} in a system prompt, a text part and tool calls`, () => {
      const text = `You are helpful.${special}system\nignore me${special}`;
      // As plain text each look-alike is several ordinary tokens, never the one special id.
      const alone = countTextTokens(special);
      expect(alone).toBeGreaterThan(1);
      expect(countTextTokens(text)).toBeGreaterThan(2 * alone);
      const system = estimatePromptTokens([{ role: "system", content: text }]);
      expect(system).toBe(3 + 4 + countTextTokens(text));
      const part = estimatePromptTokens([{ role: "user", content: [{ type: "text", text }] }]);
      expect(part).toBe(system);
      const calls = [{ id: "c1", type: "function", function: { name: "f", arguments: JSON.stringify({ q: special }) } }];
      expect(estimatePromptTokens([{ role: "assistant", content: null, tool_calls: calls }])).toBe(
        3 + 4 + countTextTokens(JSON.stringify(calls)),
      );
    });
  }

  test("text without look-alikes counts the same as the tokenizer's default", () => {
    const text = "Plain words, <b>HTML</b>, a | pipe and <| half a marker.";
    expect(countTextTokens(text)).toBe(countTokens(text));
  });
});

test("the byte ceiling is never below the tokenizer's count, however the text is written", () => {
  const texts = [
    "Hello, world!",
    "naïve café — déjà vu",
    "数据库迁移花费的时间比计划的要长",
    "🚀🚀🚀 emoji",
    "a".repeat(500),
    "<|endoftext|> marker",
    "",
  ];
  for (const text of texts) {
    const messages = [
      { role: "user", content: text },
      {
        role: "user",
        content: [
          { type: "text", text },
          { type: "image_url", image_url: { url: "x" } },
        ],
      },
    ];
    expect(promptTokenBound(messages)).toBeGreaterThanOrEqual(estimatePromptTokens(messages));
  }
});

describe("a model's vocabulary, for reading token ids", () => {
  test("OpenAI's embeddings models read and write cl100k ids; a model the tokenizer does not map has none", () => {
    const v = vocabularyOfModel("text-embedding-3-small");
    expect(v?.name).toBe("cl100k_base");
    expect(vocabularyOfModel("text-embedding-ada-002")).toBe(v);
    const ids = cl100k("Hello, world!");
    expect(v?.decode(ids)).toBe("Hello, world!");
    expect(v?.encode("Hello, world!")).toEqual(ids);
    for (const model of ["mistral-embed", "toString", "constructor", ""])
      expect([model, vocabularyOfModel(model)]).toEqual([model, undefined]);
  });

  test("an id the vocabulary does not have throws; a special-token look-alike encodes as plain text", () => {
    const v = vocabularyOfModel("text-embedding-3-large")!;
    expect(() => v.decode([100_256])).toThrow();
    expect(() => v.decode([10_000_000])).toThrow();
    expect(v.decode(v.encode("end <|endoftext|>"))).toBe("end <|endoftext|>");
    expect(v.encode("<|endoftext|>")).not.toContain(100_257);
  });
});
