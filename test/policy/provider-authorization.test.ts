/** Provider authorization worked out once per organization's providers, and looked up on the request path. */
import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { authorizeTarget, providerRefusal } from "../../src/pipeline/authorize.ts";
import { resolveTarget } from "../../src/pipeline/resolve-provider.ts";
import { configuredProviderVerdicts, verdictsFor } from "../../src/policy/provider-authorization.ts";
import { Catalog } from "../../src/providers/catalog/catalog.ts";
import type { ProviderKind } from "../../src/providers/catalog/provider-kinds.ts";
import { targetFor } from "../../src/providers/target.ts";
import { MemoryProviderDirectory } from "../../src/state/provider-directory.ts";
import { ORG_ID, openPlain, providerRecord, serviceAccount } from "./fixtures.ts";

const catalog = Catalog.builtIn();

function thrown(fn: () => void): ApiError | null {
  try {
    fn();
    return null;
  } catch (e) {
    return e as ApiError;
  }
}

describe("verdicts", () => {
  test("one per tier: geography refuses every tier, the tier table only the tiers without the kind", () => {
    const lab = verdictsFor({ kind: "self-hosted", country: "DE", providerName: "lab" });
    expect(lab.starter?.code).toBe("tier_limit_exceeded");
    expect(lab.professional).toBeNull();
    expect(lab.enterprise).toBeNull();
    const abroad = verdictsFor({ kind: "self-hosted", country: "RU", providerName: "far" });
    for (const tier of ["starter", "professional", "enterprise"] as const)
      expect(abroad[tier]).toMatchObject({ status: 403, code: "provider_blocked", details: { provider: "far", country: "RU" } });
  });

  test("a vendor's country is the catalog's, whatever its record says; self-hosted declares its own", () => {
    const moved = catalog.withOverrides({ providers: { openai: { country: "CN" } } });
    expect(configuredProviderVerdicts(moved, "openai", providerRecord({ id: "p", country: "US" })).enterprise?.code).toBe(
      "provider_blocked",
    );
    expect(configuredProviderVerdicts(catalog, "openai", providerRecord({ id: "p", country: "CN" })).enterprise).toBeNull();
    expect(
      configuredProviderVerdicts(catalog, "self-hosted", providerRecord({ id: "p", provider: "self-hosted", country: "KP" })).enterprise
        ?.code,
    ).toBe("provider_blocked");
  });

  test("the precomputed verdicts agree with working it out, for every kind, country and tier", () => {
    for (const kind of ["openai", "self-hosted", "bedrock", "deepseek"] as ProviderKind[]) {
      for (const country of ["US", "DE", "CN", null]) {
        const subject = { kind, country, providerName: "p" };
        const pre = verdictsFor(subject);
        for (const tier of ["starter", "professional", "enterprise"] as const) {
          expect([kind, country, tier, pre[tier]?.code ?? null]).toEqual([
            kind,
            country,
            tier,
            providerRefusal(serviceAccount("u", tier), subject)?.code ?? null,
          ]);
        }
      }
    }
  });
});

describe("the request path looks the verdict up", () => {
  const usTarget = targetFor({
    info: catalog.kind("openai"),
    baseUrl: "http://127.0.0.1:9/v1",
    credentials: { type: "api-key", apiKey: "sk" },
    model: "gpt-4o",
    catalogModel: undefined,
    config: { id: "p", name: "openai", format: "chat", country: "US", settings: {} },
  });

  test("a target with precomputed verdicts is judged by them, by the caller's current tier", () => {
    // Verdicts that disagree with the target's own fields prove the check reads them and computes nothing.
    const verdicts = {
      ...verdictsFor({ kind: "openai", country: "US", providerName: "openai" }),
      professional: verdictsFor({ kind: "openai", country: "RU", providerName: "openai" }).professional,
    };
    expect(thrown(() => authorizeTarget(serviceAccount("u", "enterprise"), { ...usTarget, authorization: verdicts }))).toBeNull();
    expect(thrown(() => authorizeTarget(serviceAccount("u", "professional"), { ...usTarget, authorization: verdicts }))?.code).toBe(
      "provider_blocked",
    );
  });

  test("a target without them (a per-request key) is worked out at call time", () => {
    expect(thrown(() => authorizeTarget(serviceAccount("u"), usTarget))).toBeNull();
    expect(thrown(() => authorizeTarget(serviceAccount("u"), { ...usTarget, country: "CN" }))?.code).toBe("provider_blocked");
  });

  test("the directory works the verdicts out once per organization load, and again after a provider change", async () => {
    let computed = 0;
    const records = [
      providerRecord({ id: "org-openai" }),
      providerRecord({ id: "lab", provider: "self-hosted", country: "DE", models: ["lab-model"], baseUrl: "http://127.0.0.1:9/v1" }),
    ];
    const directory = new MemoryProviderDirectory(
      async () => records.map((r) => ({ ...r })),
      openPlain,
      (kind, rec) => {
        computed++;
        return configuredProviderVerdicts(catalog, kind, rec);
      },
    );
    const deps = { catalog, directory };
    const starter = serviceAccount("u", "starter");
    for (let i = 0; i < 20; i++) {
      const openai = await resolveTarget(deps, starter, "gpt-4o", new Headers());
      authorizeTarget(starter, openai);
      const lab = await resolveTarget(deps, starter, "lab-model", new Headers());
      expect(thrown(() => authorizeTarget(starter, lab))?.code).toBe("tier_limit_exceeded");
    }
    expect(computed).toBe(2); // once per configured provider, not per call

    records[1] = { ...(records[1] as (typeof records)[number]), country: "RU", updatedAt: 2_000 };
    directory.evict(ORG_ID); // what onProvidersChanged does
    const moved = await resolveTarget(deps, serviceAccount("u", "enterprise"), "lab-model", new Headers());
    expect(thrown(() => authorizeTarget(serviceAccount("u", "enterprise"), moved))?.code).toBe("provider_blocked");
    expect(computed).toBe(4);
  });
});
