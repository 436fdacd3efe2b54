/** A provider's failure status as the gateway's error, and whether it counts against the provider's health. */
import { expect, test } from "bun:test";
import { isProviderFault } from "../../src/pipeline/fallback.ts";
import { providerFailure } from "../../src/providers/provider-failure.ts";

test("the provider's own timeout (the platform's 408, the vendor's 504) is the gateway's timeout, a fault of the provider", () => {
  for (const status of [408, 504]) {
    for (const from of ["answer", "stream event"] as const) {
      const failure = providerFailure(status, "Model has timed out in processing the request.", "bedrock", undefined, from);
      expect([failure.status, failure.code]).toEqual([504, "provider_timeout"]);
      expect(failure.message).toStartWith("bedrock timed out (");
      expect(isProviderFault(failure)).toBe(true);
    }
  }
});

test("a model's own failure behind the platform (424) is the provider's 502, a fault of the provider", () => {
  const failure = providerFailure(424, "ModelErrorException: The model returned an error.", "bedrock");
  expect([failure.status, failure.code]).toEqual([502, "provider_error"]);
  expect(failure.message).toBe("bedrock failed (HTTP 424): ModelErrorException: The model returned an error.");
  expect(isProviderFault(failure)).toBe(true);
});

test("other client errors keep their status and are not the provider's fault", () => {
  const failure = providerFailure(400, "bad", "bedrock");
  expect([failure.status, failure.code]).toEqual([400, "provider_error"]);
  expect(isProviderFault(failure)).toBe(false);
});
