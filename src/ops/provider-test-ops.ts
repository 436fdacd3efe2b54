/** `provider.test`: the dashboard's "test connection" button. */
import { Type } from "@sinclair/typebox";
import { testProvider } from "../services/provider-test.ts";
import { defineOperation } from "./registry.ts";

export const providerTest = defineOperation({
  id: "provider.test",
  access: "member-write",
  summary: "Whether policy lets the organization call this provider, and whether it answers with the stored key (its model list).",
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
  async run({ identity, deps }, p) {
    return testProvider(deps, deps.models, identity, p.id);
  },
});

export const providerTestOperations = [providerTest];
