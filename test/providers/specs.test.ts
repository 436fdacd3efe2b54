/** Each provider kind's spec: its flags, how it reads a configuration's credentials and settings, and where it sends a call. */
import { describe, expect, test } from "bun:test";
import { ApiError } from "../../src/lib/errors.ts";
import { AZURE_DEFAULT_API_VERSION } from "../../src/providers/azure/azure-spec.ts";
import { PROVIDER_KINDS, PROVIDER_KINDS_INFO } from "../../src/providers/catalog/provider-kinds.ts";
import { chatMaxTokensName, endpointUrl, modelInBody, settingsFor, specFor } from "../../src/providers/specs.ts";
import { targetFor } from "../../src/providers/target.ts";

function refusal(fn: () => unknown): { param: string | null; message: string } | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    expect(err.status).toBe(400);
    return { param: err.param, message: err.message };
  }
}

describe("flags", () => {
  const kindsWhere = (pick: (k: (typeof PROVIDER_KINDS)[number]) => boolean) => PROVIDER_KINDS.filter(pick);

  test("the tier classes: the caller's own models, the cloud platforms, and every other kind a vendor", () => {
    expect(kindsWhere((k) => specFor(k).tierClass === "own-models")).toEqual(["self-hosted", "custom"]);
    expect(kindsWhere((k) => specFor(k).tierClass === "cloud-platform")).toEqual(["azure-openai", "bedrock"]);
    expect(kindsWhere((k) => specFor(k).tierClass === "vendor")).toHaveLength(PROVIDER_KINDS.length - 4);
  });

  test("only a self-hosted server may leave its key out; only the caller's own models declare a country; only custom chooses its format", () => {
    expect(kindsWhere((k) => specFor(k).keyOptional)).toEqual(["self-hosted"]);
    expect(kindsWhere((k) => specFor(k).declaresCountry)).toEqual(["self-hosted", "custom"]);
    expect(kindsWhere((k) => specFor(k).choosesFormat)).toEqual(["custom"]);
  });

  test("a kind that declares its country is exactly a kind the catalog gives none", () => {
    for (const k of PROVIDER_KINDS) expect([k, specFor(k).declaresCountry]).toEqual([k, PROVIDER_KINDS_INFO[k].country === null]);
  });
});

describe("credentials", () => {
  test("an API key, required except where the key is optional", () => {
    expect(specFor("openai").credentials({ apiKey: "sk-1" })).toEqual({ type: "api-key", apiKey: "sk-1" });
    expect(refusal(() => specFor("openai").credentials({}))?.param).toBe("params.apiKey");
    expect(specFor("self-hosted").credentials({})).toEqual({ type: "api-key", apiKey: "" });
    expect(refusal(() => specFor("custom").credentials({}))?.param).toBe("params.apiKey");
  });

  test("the platform takes AWS credentials (the secret with the key id) or a platform API key", () => {
    const bedrock = specFor("bedrock");
    expect(bedrock.credentials({ accessKeyId: "AKIA1", secretAccessKey: "s3cret", sessionToken: "tok" })).toEqual({
      type: "aws",
      accessKeyId: "AKIA1",
      secretAccessKey: "s3cret",
      sessionToken: "tok",
    });
    expect(bedrock.credentials({ accessKeyId: "AKIA1", secretAccessKey: "s3cret" })).toEqual({
      type: "aws",
      accessKeyId: "AKIA1",
      secretAccessKey: "s3cret",
    });
    expect(refusal(() => bedrock.credentials({ accessKeyId: "AKIA1" }))?.param).toBe("params.secretAccessKey");
    expect(bedrock.credentials({ apiKey: "bedrock-key" })).toEqual({ type: "api-key", apiKey: "bedrock-key" });
    expect(refusal(() => bedrock.credentials({}))?.message).toContain("accessKeyId and secretAccessKey");
  });
});

describe("settings", () => {
  test("a kind refuses the settings of another kind, naming the field and the kinds that take it", () => {
    expect(refusal(() => settingsFor("openai", { region: "us-east-1" }, {}))).toEqual({
      param: "params.region",
      message: "params.region: only bedrock providers take region",
    });
    expect(refusal(() => settingsFor("openai", { deployments: { a: "b" } }, {}))?.param).toBe("params.deployments");
    expect(refusal(() => settingsFor("bedrock", { region: "us-east-1", apiVersion: "2024-06-01" }, {}))).toEqual({
      param: "params.apiVersion",
      message: "params.apiVersion: only azure-openai providers take apiVersion",
    });
    expect(refusal(() => settingsFor("azure-openai", { region: "us-east-1" }, {}))?.param).toBe("params.region");
    expect(settingsFor("azure-openai", { apiVersion: "2024-06-01" }, {})).toEqual({ apiVersion: "2024-06-01" });
  });

  test("the platform needs a well-formed region, given now or kept from before", () => {
    const bedrock = specFor("bedrock");
    expect(bedrock.settingsFrom({ region: "eu-central-1" }, {})).toEqual({ region: "eu-central-1" });
    expect(bedrock.settingsFrom({}, { region: "us-gov-west-1" })).toEqual({ region: "us-gov-west-1" });
    for (const bad of [undefined, "us-east-1.evil", "US-EAST-1", "us-east"])
      expect(refusal(() => bedrock.settingsFrom({ region: bad }, {}))?.param).toBe("params.region");
    expect(bedrock.readSettings({ region: "ap-south-1" })).toEqual({ region: "ap-south-1" });
  });

  test("Azure keeps only what was given and reads its default version back", () => {
    const azure = specFor("azure-openai");
    expect(azure.settingsFrom({ deployments: { "gpt-4o": "prod" } }, { apiVersion: "2024-06-01" })).toEqual({
      apiVersion: "2024-06-01",
      deployments: { "gpt-4o": "prod" },
    });
    expect(azure.readSettings({})).toEqual({ apiVersion: AZURE_DEFAULT_API_VERSION, deployments: {} });
    // A stored map with a value that is not a name is not trusted as one.
    expect(azure.readSettings({ deployments: { a: 1 } }).deployments).toEqual({});
  });

  test("a kind without settings keeps what was stored and reads none", () => {
    expect(settingsFor("mistral", {}, { legacy: true })).toEqual({ legacy: true });
    expect(specFor("mistral").readSettings({ legacy: true })).toEqual({});
  });
});

describe("addresses", () => {
  const at = (kind: "openai" | "azure-openai" | "bedrock", baseUrl: string, settings: Record<string, unknown>, model: string) =>
    targetFor({
      info: PROVIDER_KINDS_INFO[kind],
      baseUrl,
      credentials: { type: "api-key", apiKey: "k" },
      model,
      catalogModel: undefined,
      config: { id: "p", name: kind, format: PROVIDER_KINDS_INFO[kind].format, country: "US", settings },
    });

  test("a vendor joins its address and the operation", () => {
    expect(endpointUrl(at("openai", "https://api.openai.com/v1", {}, "gpt-4o"), "chat/completions")).toBe(
      "https://api.openai.com/v1/chat/completions",
    );
  });

  test("Azure sends a model to its deployment, with the version, and lists models at the resource", () => {
    const t = at(
      "azure-openai",
      "https://res.openai.azure.com",
      { apiVersion: "2025-01-01", deployments: { "gpt-4o": "my deploy" } },
      "gpt-4o",
    );
    expect(endpointUrl(t, "chat/completions")).toBe(
      "https://res.openai.azure.com/openai/deployments/my%20deploy/chat/completions?api-version=2025-01-01",
    );
    expect(endpointUrl(t, "models")).toBe("https://res.openai.azure.com/openai/models?api-version=2025-01-01");
    const unmapped = at("azure-openai", "https://res.openai.azure.com", {}, "gpt-4o-mini");
    expect(endpointUrl(unmapped, "embeddings")).toBe(
      `https://res.openai.azure.com/openai/deployments/gpt-4o-mini/embeddings?api-version=${AZURE_DEFAULT_API_VERSION}`,
    );
  });

  test("Azure's v1 API, by apiVersion v1 or a base URL ending in /openai/v1: no version, the deployment named in the body", () => {
    for (const [baseUrl, settings] of [
      ["https://res.openai.azure.com", { apiVersion: "v1", deployments: { "gpt-4o": "my-deploy" } }],
      ["https://res.openai.azure.com/openai/v1", { deployments: { "gpt-4o": "my-deploy" } }],
      ["https://res.openai.azure.com/openai/v1/", { apiVersion: "2024-06-01", deployments: { "gpt-4o": "my-deploy" } }],
    ] as const) {
      const t = at("azure-openai", baseUrl, settings, "gpt-4o");
      expect(endpointUrl(t, "chat/completions")).toBe("https://res.openai.azure.com/openai/v1/chat/completions");
      expect(endpointUrl(t, "responses")).toBe("https://res.openai.azure.com/openai/v1/responses");
      expect(endpointUrl(t, "models")).toBe("https://res.openai.azure.com/openai/v1/models");
      expect(modelInBody(t)).toBe("my-deploy");
      expect(chatMaxTokensName(t)).toBe("max_completion_tokens");
    }
    // The deployment paths stay the default, and their body names the model as before.
    const paths = at("azure-openai", "https://res.openai.azure.com", { deployments: { "gpt-4o": "my-deploy" } }, "gpt-4o");
    expect(endpointUrl(paths, "chat/completions")).toStartWith("https://res.openai.azure.com/openai/deployments/my-deploy/");
    expect(modelInBody(paths)).toBe("gpt-4o");
    expect(modelInBody(at("openai", "https://api.openai.com/v1", {}, "gpt-4o"))).toBe("gpt-4o");
  });

  test("a model named as a member every object has is its own deployment, never that member's text", () => {
    for (const model of ["constructor", "toString", "__proto__"]) {
      const t = at("azure-openai", "https://res.openai.azure.com", { deployments: { "gpt-4o": "prod" } }, model);
      expect(endpointUrl(t, "chat/completions")).toBe(
        `https://res.openai.azure.com/openai/deployments/${model}/chat/completions?api-version=${AZURE_DEFAULT_API_VERSION}`,
      );
    }
  });

  test("the platform uses its region's runtime address unless the configuration gives one", () => {
    expect(endpointUrl(at("bedrock", "", { region: "eu-west-3" }, "m"), "model/m/invoke")).toBe(
      "https://bedrock-runtime.eu-west-3.amazonaws.com/model/m/invoke",
    );
    expect(endpointUrl(at("bedrock", "https://vpce.example", { region: "eu-west-3" }, "m"), "model/m/invoke")).toBe(
      "https://vpce.example/model/m/invoke",
    );
  });
});

describe("the output limit's name", () => {
  const of = (kind: (typeof PROVIDER_KINDS)[number], settings: Record<string, unknown> = {}) =>
    chatMaxTokensName(
      targetFor({
        info: PROVIDER_KINDS_INFO[kind],
        baseUrl: "https://provider.example",
        credentials: { type: "api-key", apiKey: "k" },
        model: "m",
        catalogModel: undefined,
        config: { id: "p", name: kind, format: PROVIDER_KINDS_INFO[kind].format, country: "US", settings },
      }),
    );

  test("OpenAI and Azure take max_completion_tokens, the caller's own servers the caller's name, every other kind max_tokens", () => {
    expect(PROVIDER_KINDS.filter((k) => of(k) === "max_completion_tokens")).toEqual(["openai", "azure-openai"]);
    expect(PROVIDER_KINDS.filter((k) => of(k) === null)).toEqual(["self-hosted", "custom"]);
  });

  test("an Azure data-plane version from before the reasoning models knows only max_tokens", () => {
    expect(of("azure-openai", { apiVersion: "2024-06-01" })).toBe("max_tokens");
    expect(of("azure-openai", { apiVersion: "2024-08-01-preview" })).toBe("max_tokens");
    expect(of("azure-openai", { apiVersion: "2024-09-01-preview" })).toBe("max_completion_tokens");
    expect(of("azure-openai", { apiVersion: "2025-04-01-preview" })).toBe("max_completion_tokens");
    expect(of("azure-openai", { apiVersion: "v1" })).toBe("max_completion_tokens");
  });
});
