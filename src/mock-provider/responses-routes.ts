/**
 * The mock's token count for the messages format (`POST /v1/messages/count_tokens`).
 * Its Responses API is the simulator's (simulator/responses-format.ts).
 */
import { estimatePromptTokens } from "../lib/token-estimate.ts";

/** The vendor's count: the system prompt, the messages and the tools' definitions, with the mock's tokenizer. */
export function mockCountTokens(body: Record<string, unknown>): Response {
  if (typeof body.model !== "string" || !Array.isArray(body.messages)) {
    return Response.json(
      { type: "error", error: { type: "invalid_request_error", message: "model and messages are required" } },
      { status: 400 },
    );
  }
  const system = body.system === undefined ? [] : [{ role: "system", content: body.system }];
  const tools = Array.isArray(body.tools) ? [{ role: "system", content: JSON.stringify(body.tools) }] : [];
  return Response.json({ input_tokens: estimatePromptTokens([...system, ...(body.messages as { content?: unknown }[]), ...tools]) });
}
