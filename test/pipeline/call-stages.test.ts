/**
 * The call's own stage list: plan, optimize, scan, in that order; each stage replaces
 * the body it rewrites, and their afters put what they found on the answer, in reverse
 * order, only when there is an answer.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_ORG_PREFERENCES, type EtlDocument } from "../../src/domain/types.ts";
import type { Identity } from "../../src/domain/identity.ts";
import { type CallContext, callStages, optimizeStage, scanStage } from "../../src/pipeline/call-stages.ts";
import type { CallInput, JsonOutcome } from "../../src/pipeline/call-types.ts";
import type { RoutedPlan, RoutePlanDeps } from "../../src/pipeline/route-plan.ts";
import { chatTexts } from "../../src/pipeline/scan/request-texts.ts";
import { startStages } from "../../src/pipeline/stages.ts";
import { MemoryOrgSettings } from "../../src/state/org-settings.ts";
import { testCatalog, testTarget } from "../support/targets.ts";

const catalog = testCatalog;
const target = testTarget("openai", "gpt-4o");
const plan = { targets: [target], fallback: false, routed: null } as unknown as RoutedPlan;
const para = (n: number) => `Point ${n}: the meeting moves to Thursday afternoon in the large room.`;
const DUPED = [para(1), para(2), para(1)].join("\n\n");

function input(): CallInput {
  const identity = { organization: { id: "org_t" } } as unknown as Identity;
  return { scope: { identity, requestId: "req_t", startedAt: 0 }, headers: new Headers(), caller: {} as never };
}

function context(content: string): CallContext {
  const body = { model: "gpt-4o", messages: [{ role: "user", content }] };
  return { input: input(), body, route: null, optimize: "chat", operation: "chat", texts: chatTexts, plan };
}

const answered = (): JsonOutcome => ({ type: "json", status: 200, text: "{}", servedBy: "openai/gpt-4o", costMicros: 0 });

function settingsWith(prefs: Partial<typeof DEFAULT_ORG_PREFERENCES>) {
  return new MemoryOrgSettings(async () => ({ ...DEFAULT_ORG_PREFERENCES, ...prefs }));
}

test("the list, in order: plan, optimize, scan", () => {
  const settings = settingsWith({});
  const stages = callStages({ route: { settings } as unknown as RoutePlanDeps, optimize: { spend: { settings, catalog } } });
  expect(stages.map((s) => s.name)).toEqual(["plan", "optimize", "scan"]);
});

describe("optimize then scan", () => {
  test("the scanner reads the optimizer's copy, redaction replaces it again; once answered, the scan's counts and the optimizer's figures", async () => {
    const recorded: EtlDocument[] = [];
    const settings = settingsWith({ contextOptimizer: true, piiAction: "redact" });
    const stages = [
      optimizeStage({ spend: { settings, catalog }, etl: { recordEtlDocument: async (d) => void recorded.push(d) } }),
      scanStage({ settings }),
    ];
    const ctx = context(`${DUPED}\n\nMail jane@corp-mail.example.com`);
    const original = ctx.body;
    const end = await startStages(stages, ctx);
    const sent = (ctx.body.messages as { content: string }[])[0]!.content;
    expect(sent).toContain("[EMAIL_1]");
    expect(sent.split(para(1)).length).toBe(2);
    expect((original.messages as { content: string }[])[0]!.content).toContain("jane@");
    expect(recorded).toHaveLength(0);
    const outcome = answered();
    await end(outcome);
    expect(outcome.security).toBeDefined();
    expect(outcome.optimizedTokens).toMatch(/^\d+->\d+$/);
    expect(recorded).toHaveLength(1);
  });

  test("a blocked prompt stops the list: nothing recorded, the error is the scan's", async () => {
    const recorded: EtlDocument[] = [];
    const settings = settingsWith({ contextOptimizer: true });
    const stages = [
      optimizeStage({ spend: { settings, catalog }, etl: { recordEtlDocument: async (d) => void recorded.push(d) } }),
      scanStage({ settings }),
    ];
    const err = await Promise.resolve(startStages(stages, context(`${DUPED} ghp_Q7vLm2Rk9XwTz4Hn8Bc3Pd6Yf1Gs5Ja0KeWx`))).catch((e) => e);
    expect(err.code).toBe("security_violation");
    expect(recorded).toHaveLength(0);
  });

  test("the scan reads national phone numbers in the organization's phone region", async () => {
    const ctx = context("Zadzwoń pod 15-976-47-73");
    await startStages([scanStage({ settings: settingsWith({ phoneRegion: "PL" }) })], ctx);
    expect(ctx.body.messages).toEqual([{ role: "user", content: "Zadzwoń pod [PHONE_1]" }]);
  });

  test("a call that failed after the stages gets nothing put on it", async () => {
    const settings = settingsWith({ contextOptimizer: false });
    const ctx = context("hello");
    const end = await startStages([optimizeStage({ spend: { settings, catalog } }), scanStage({ settings })], ctx);
    expect(ctx.body.messages).toEqual([{ role: "user", content: "hello" }]);
    await end(null);
  });
});
