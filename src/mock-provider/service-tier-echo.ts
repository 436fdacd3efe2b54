/**
 * The mock provider's service-tier echo: as OpenAI does, every chat and Responses
 * answer names the tier it was served at in `service_tier`: the one asked for when it
 * is `priority` or `flex`, else `default`. It lets a test price a call at a tier end to
 * end; the mock serves every tier alike, only the name differs.
 */
const ECHOED = new Set(["priority", "flex"]);

export function serviceTierEcho(body: Record<string, unknown> | null): string {
  const asked = body?.service_tier;
  return typeof asked === "string" && ECHOED.has(asked) ? asked : "default";
}
