/** The mock provider's service-tier echo: the tier asked for when it is one the catalog prices, else `default`. */
import { expect, test } from "bun:test";
import { serviceTierEcho } from "../../src/mock-provider/service-tier-echo.ts";

test("priority and flex are echoed; anything else, or nothing, is answered as default", () => {
  expect(serviceTierEcho({ service_tier: "priority" })).toBe("priority");
  expect(serviceTierEcho({ service_tier: "flex" })).toBe("flex");
  for (const body of [null, {}, { service_tier: "auto" }, { service_tier: "scale" }, { service_tier: 1 }])
    expect(serviceTierEcho(body)).toBe("default");
});
