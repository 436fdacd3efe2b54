/**
 * The context-optimizer stage on its own: who decides (header over preference), what
 * it rewrites and leaves, the figures it records (never text), and that the caller's
 * body is never changed.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_ORG_PREFERENCES, type EtlDocument } from "../../src/domain/types.ts";
import type { Identity } from "../../src/domain/identity.ts";
import { countTextTokens } from "../../src/lib/token-estimate.ts";
import type { CallInput, JsonOutcome } from "../../src/pipeline/call-types.ts";
import { optimizeBody, optimizeContext, optimizeEmbeddings, optimizerWanted } from "../../src/pipeline/optimize-context.ts";
import { PROVIDER_KINDS_INFO } from "../../src/providers/catalog/provider-kinds.ts";
import { targetFor } from "../../src/providers/target.ts";
import { MemoryOrgSettings } from "../../src/state/org-settings.ts";
import { testCatalog, testTarget } from "../support/targets.ts";

const catalog = testCatalog;
const target = testTarget("openai", "gpt-4o");
const para = (n: number) => `Point ${n}: the meeting moves to Thursday afternoon in the large room.`;
const DUPED = [para(1), para(2), para(1)].join("\n\n");
const CLEAN = [para(1), para(2)].join("\n\n");

function input(headers: Record<string, string> = {}): CallInput {
  const identity = { organization: { id: "org_t" } } as unknown as Identity;
  return { scope: { identity, requestId: "req_t", startedAt: 0 }, headers: new Headers(headers), caller: {} as never };
}

const answered = (): JsonOutcome => ({ type: "json", status: 200, text: "{}", servedBy: "openai/gpt-4o", costMicros: 0 });

function deps(contextOptimizer: boolean) {
  const recorded: EtlDocument[] = [];
  return {
    recorded,
    deps: {
      spend: { settings: new MemoryOrgSettings(async () => ({ ...DEFAULT_ORG_PREFERENCES, contextOptimizer })), catalog },
      etl: { recordEtlDocument: async (d: EtlDocument) => void recorded.push(d) },
      now: () => 1_700_000_000_000,
    },
  };
}

describe("who decides", () => {
  test("the header wins for one call; without it, the preference", () => {
    expect(optimizerWanted(new Headers(), false)).toBe(false);
    expect(optimizerWanted(new Headers(), true)).toBe(true);
    expect(optimizerWanted(new Headers({ "x-gw-optimize": "on" }), false)).toBe(true);
    expect(optimizerWanted(new Headers({ "x-gw-optimize": " OFF " }), true)).toBe(false);
  });

  test("any other value is a 400 naming the header", () => {
    for (const v of ["", "1", "true", "yes"])
      expect(() => optimizerWanted(new Headers({ "x-gw-optimize": v }), true)).toThrow(
        expect.objectContaining({ status: 400, code: "invalid_request", param: "x-gw-optimize" }),
      );
  });
});

describe("optimizeBody", () => {
  test("chat: prose turns and text parts rewritten, tool results and media left, the caller's object unchanged", () => {
    const body = {
      model: "gpt-4o",
      messages: [
        { role: "system", content: DUPED },
        { role: "tool", tool_call_id: "t", content: DUPED },
        {
          role: "user",
          content: [
            { type: "text", text: DUPED },
            { type: "image_url", image_url: { url: "https://example.com/a.png" } },
          ],
        },
      ],
    };
    const copy = structuredClone(body);
    const o = optimizeBody(body, "chat");
    expect(body).toEqual(copy);
    expect(o.body.messages).toEqual([
      { role: "system", content: CLEAN },
      { role: "tool", tool_call_id: "t", content: DUPED },
      { role: "user", content: [{ type: "text", text: CLEAN }, body.messages[2]!.content[1]] },
    ]);
    expect(o.originalTokens).toBe(2 * countTextTokens(DUPED));
    expect(o.optimizedTokens).toBe(2 * countTextTokens(CLEAN));
    expect(o.transformations).toEqual(["deduplication"]);
  });

  test("messages: the system prompt too; a dropped repeated turn leaves the figures", () => {
    const body = {
      model: "claude-haiku-4-5",
      system: [{ type: "text", text: `Be   terse.` }],
      messages: [
        { role: "user", content: "Hello there." },
        { role: "assistant", content: "Hi." },
        { role: "user", content: "Hello there." },
        { role: "user", content: "Plan the day." },
      ],
    };
    const o = optimizeBody(body, "messages");
    expect(o.body.system).toEqual([{ type: "text", text: "Be terse." }]);
    expect(o.body.messages).toEqual([body.messages[0], body.messages[1], body.messages[3]]);
    const all = ["Be   terse.", ...body.messages.map((m) => m.content)];
    expect(o.originalTokens).toBe(all.reduce((n, t) => n + countTextTokens(t), 0));
    const systemSaved = countTextTokens("Be   terse.") - countTextTokens("Be terse.");
    expect(o.optimizedTokens).toBe(o.originalTokens - systemSaved - countTextTokens("Hello there."));
    expect(o.transformations.sort()).toEqual(["deduplication", "normalization"]);
  });
  test("responses: instructions, a string input and input items; function calls left as they are", () => {
    const call = { type: "function_call", call_id: "c", name: "f", arguments: DUPED };
    const o = optimizeBody({ model: "gpt-4o", instructions: `Be   terse.`, input: DUPED }, "responses");
    expect(o.body.instructions).toBe("Be terse.");
    expect(o.body.input).toBe(CLEAN);
    const items = optimizeBody(
      {
        model: "gpt-4o",
        input: [{ type: "message", role: "user", content: [{ type: "input_text", text: DUPED }] }, call],
      },
      "responses",
    );
    expect(items.body.input).toEqual([{ type: "message", role: "user", content: [{ type: "input_text", text: CLEAN }] }, call]);
  });
});

describe("the stage", () => {
  const body = { model: "gpt-4o", messages: [{ role: "user", content: DUPED }] };

  test("off: the body itself, no header, nothing recorded", async () => {
    const d = deps(false);
    const r = await optimizeContext(d.deps, input(), body, "chat", target);
    expect(r.body).toBe(body);
    const outcome = await r.settle(answered());
    expect(outcome.optimizedTokens).toBeUndefined();
    expect(d.recorded).toEqual([]);
  });

  test("on: the optimized body; once answered, the header and one row of figures priced at the target's input price", async () => {
    const d = deps(true);
    const r = await optimizeContext(d.deps, input(), body, "chat", target);
    expect((r.body.messages as { content: string }[])[0]!.content).toBe(CLEAN);
    // Nothing recorded until the call is answered: a call refused after this stage leaves nothing.
    expect(d.recorded).toEqual([]);
    const [before, after] = [countTextTokens(DUPED), countTextTokens(CLEAN)];
    expect((await r.settle(answered())).optimizedTokens).toBe(`${before}->${after}`);
    expect(d.recorded).toHaveLength(1);
    const row = d.recorded[0]!;
    expect(row).toMatchObject({ orgId: "org_t", createdAt: 1_700_000_000_000, originalTokens: before, optimizedTokens: after });
    expect(row.costSavingsMicros).toBe(Math.round((before - after) * catalog.price("gpt-4o", "openai").inputPerMTok));
    expect(row.transformations).toEqual(["deduplication"]);
    expect(JSON.stringify(row)).not.toContain("Thursday");
  });

  test("x-gw-optimize: off beats the preference", async () => {
    const d = deps(true);
    const r = await optimizeContext(d.deps, input({ "x-gw-optimize": "off" }), body, "chat", target);
    expect(r.body).toBe(body);
    await r.settle(answered());
    expect(d.recorded).toEqual([]);
  });
});

describe("the embeddings stage", () => {
  const small = targetFor({
    info: PROVIDER_KINDS_INFO.openai,
    baseUrl: "http://127.0.0.1:9/v1",
    credentials: { type: "api-key", apiKey: "sk-test" },
    model: "text-embedding-3-small",
    catalogModel: { ...catalog.model("text-embedding-3-small")!, contextWindow: 40 },
  });

  test("chunked at 90% of the context; the header says how many each input became", async () => {
    const d = deps(true);
    const r = await optimizeEmbeddings(d.deps, input(), { model: "text-embedding-3-small", input: ["hi", DUPED] }, small);
    const sent = r.body.input as string[];
    expect(sent[0]).toBe("hi");
    for (const c of sent) expect(countTextTokens(c)).toBeLessThanOrEqual(36);
    const out = await r.settle(answered());
    expect(out.embeddingChunks).toBe(`1,${sent.length - 1}`);
    expect(d.recorded[0]!.transformations).toEqual(["chunking"]);
  });

  test("more than 2048 inputs after chunking is a 400 naming input", async () => {
    const d = deps(true);
    const many = Array.from({ length: 2047 }, () => "x");
    await expect(optimizeEmbeddings(d.deps, input(), { model: "m", input: [...many, DUPED] }, small)).rejects.toMatchObject({
      status: 400,
      param: "input",
    });
  });

  test("a model whose context is unknown is sent as written", async () => {
    const d = deps(true);
    const unknown = { ...small, catalogModel: undefined } as typeof small;
    const body = { model: "custom", input: DUPED };
    expect((await optimizeEmbeddings(d.deps, input(), body, unknown)).body).toBe(body);
  });
});
