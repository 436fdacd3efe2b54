/**
 * Embeddings input as token ids, with the official OpenAI client: the ids are read with the
 * model's vocabulary and scanned as text is, refused where they cannot be read, and no
 * refused call reaches the provider or is charged.
 */
import { describe, expect, test } from "bun:test";
import { encode } from "gpt-tokenizer/encoding/cl100k_base";
import OpenAI from "openai";
import { MAX_TOKEN_IDS } from "../../src/pipeline/scan/token-id-texts.ts";
import { clientStackPerFile } from "../support/client-stack.ts";
import { withStore } from "../support/store-access.ts";

const LEAKED_KEY = "ghp_Q7vLm2Rk9XwTz4Hn8Bc3Pd6Yf1Gs5Ja0KeWx";
const EMAIL = "jane.doe@corp-mail.example.com";
const MODEL = "text-embedding-3-small";

const stack = clientStackPerFile({
  env: { GW_FLUSH_INTERVAL_MS: "50" },
  providers: [
    { provider: "mistral", apiKey: "mistral-key-123456", baseUrl: "{mock}/v1" },
    // Deployments the catalog does not list, called by their own names; one mapped from a listed embeddings model.
    { provider: "azure-openai", name: "az", apiKey: "azure-key-1234567890", baseUrl: "{mock}", deployments: { [MODEL]: "team-embed" } },
  ],
});

const upstreamCalls = async () => (await stack.mock.requests()).length;
/** The error a refused call ends with (an answered one fails the test). */
const refusal = (input: string | string[] | number[] | number[][], model = MODEL) =>
  stack.openai.embeddings.create({ model, input }).then(
    () => {
      throw new Error(`the call with ${model} was answered`);
    },
    (e) => e,
  );

describe("read with the model's vocabulary and scanned as text is", () => {
  test("a credential sent as token ids is blocked with the same x-gw-security as its text, and never forwarded", async () => {
    const text = `config: ${LEAKED_KEY}`;
    const before = await upstreamCalls();
    const asText = await refusal(["fine", text]);
    const asIds = await refusal([encode("fine"), encode(text)]);
    for (const err of [asText, asIds]) {
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect(err.status).toBe(400);
      expect(err.error).toMatchObject({ code: "security_violation", param: "input.1", details: { category: "secret" } });
      expect(JSON.stringify(err.error)).not.toContain(LEAKED_KEY);
    }
    expect(asIds.headers?.get("x-gw-security")).toBe(asText.headers?.get("x-gw-security") ?? "");
    expect(asIds.headers?.get("x-gw-security")).toBe("secret=1; injection=0; pii=0");

    const flat = await refusal(encode(text));
    expect(flat.status).toBe(400);
    expect(flat.error).toMatchObject({ code: "security_violation", param: "input" });
    expect(await upstreamCalls()).toBe(before);
  });

  test("ordinary ids pass and reach the provider unchanged", async () => {
    const nested = [encode("The quick brown fox."), [...encode("jumps over the lazy dog"), 100_257]];
    const res = await stack.openai.embeddings.create({ model: MODEL, input: nested }).withResponse();
    expect(res.data.data).toHaveLength(2);
    expect(res.response.headers.get("x-gw-security")).toBe("secret=0; injection=0; pii=0");
    expect((await stack.lastUpstreamBody()).input).toEqual(nested);

    const flat = encode("A plain sentence about embeddings.");
    await stack.openai.embeddings.create({ model: MODEL, input: flat });
    expect((await stack.lastUpstreamBody()).input).toEqual(flat);
  });

  test("personal data in token ids is redacted as in text, and sent as the redacted text's ids", async () => {
    const res = await stack.openai.embeddings.create({ model: MODEL, input: [encode("fine"), encode(`owner ${EMAIL}`)] }).withResponse();
    expect(res.response.headers.get("x-gw-security")).toBe("secret=0; injection=0; pii=1; redacted=1");
    expect((await stack.lastUpstreamBody()).input).toEqual([encode("fine"), encode("owner [EMAIL_1]")]);
  });
});

describe("refused before any provider is called", () => {
  // First of the refusals, before any call to mistral-embed or text-embedding-ada-002 is answered: no row may name them.
  test("nothing is charged for a refused call", async () => {
    await refusal([encode(`config: ${LEAKED_KEY}`)], "text-embedding-ada-002");
    await refusal([[-5]], "text-embedding-ada-002");
    await refusal([encode("hello")], "mistral-embed");
    // A call answered after them, of a model nothing else here calls: once its row is written, any row of theirs would be too.
    await stack.openai.embeddings.create({ model: "text-embedding-3-large", input: "answered" });
    let rows: { model: string; status: number }[] = [];
    for (let i = 0; i < 100 && !rows.some((r) => r.model === "text-embedding-3-large"); i++) {
      await Bun.sleep(50);
      rows = await withStore(stack.gw.dataDir, (s) => s.listUsageEvents(stack.org.orgId));
    }
    expect(rows.filter((r) => r.model === "text-embedding-3-large")).toHaveLength(1);
    expect(rows.filter((r) => r.model !== MODEL || r.status !== 200).map((r) => [r.model, r.status])).toEqual([
      ["text-embedding-3-large", 200],
    ]);
  });

  test("a model whose vocabulary the gateway does not know: its ids are refused, its text is served", async () => {
    const before = await upstreamCalls();
    const err = await refusal([encode("hello")], "mistral-embed");
    expect(err.status).toBe(400);
    expect(err.error).toMatchObject({ code: "invalid_request", param: "input" });
    expect(err.error?.message).toContain("cannot read");
    expect(await upstreamCalls()).toBe(before);

    const ok = await stack.openai.embeddings.create({ model: "mistral-embed", input: "hello" });
    expect(ok.data).toHaveLength(1);
  });

  test("ids that are not the vocabulary's (negative, in a gap, beyond it) and too many ids are a 400", async () => {
    const before = await upstreamCalls();
    const cases: [number[] | number[][], string][] = [
      [[15339, -1], "input"],
      [[[15339], [-1]], "input.1"],
      [[[15339], [100256]], "input.1"],
      [[[15339], [100_277]], "input.1"],
      [[2 ** 40], "input"],
      [Array.from({ length: MAX_TOKEN_IDS + 1 }, () => 15339), "input"],
    ];
    for (const [input, param] of cases) {
      const err = await refusal(input);
      expect([err.status, err.error?.code, err.error?.param]).toEqual([400, "invalid_request", param]);
    }
    expect(await upstreamCalls()).toBe(before);
  });
});

// After the charge check above, which reads every row of the file so far.
describe("Azure deployments the catalog does not list", () => {
  test("an Azure deployment its configuration maps from a listed model reads ids with that model's vocabulary", async () => {
    const ids = [encode("The quick brown fox."), encode("jumps")];
    const res = await stack.openai.embeddings.create({ model: "az/team-embed", input: ids }).withResponse();
    expect(res.data.data).toHaveLength(2);
    expect(res.response.headers.get("x-gw-security")).toBe("secret=0; injection=0; pii=0");
    const seen = (await stack.mock.requests()).at(-1);
    expect([seen?.path, seen?.body?.input]).toEqual(["/openai/deployments/team-embed/embeddings", ids]);
    // Scanned as the text they stand for, as at the vendor.
    const leaked = await refusal([encode(`config: ${LEAKED_KEY}`)], "az/team-embed");
    expect(leaked.error).toMatchObject({ code: "security_violation", param: "input.0" });
    // A deployment nothing listed maps to: its vocabulary is not known, so its ids are still refused.
    const unknown = await refusal([encode("hello")], "az/our-own-deployment");
    expect([unknown.status, unknown.error?.details?.reason]).toEqual([400, "unknown_vocabulary"]);
  });
});
