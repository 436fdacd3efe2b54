/**
 * OpenAI's reasoning models (o-series, gpt-5) refuse the deprecated `max_tokens` and take
 * the output limit only as `max_completion_tokens`, at OpenAI and at an Azure deployment of
 * them alike: a 400 with `code: "unsupported_parameter"` and `param: "max_tokens"`
 * (openai/openai-node src/resources/chat/completions/completions.ts, `max_tokens`: "not
 * compatible with o-series models"; Azure OpenAI's reasoning models page). The mock refuses
 * as they do, so a gateway that sends the old name to them fails its tests.
 */

/** A reasoning model's name, alone or as a word of an Azure deployment's name (`prod-o3`). */
const REASONING = /(?:^|[-_./])(?:o\d|gpt-5)/;

/** The deployment an Azure path names (`/openai/deployments/{name}/...`), else the body's model. */
function modelOf(pathname: string, body: Record<string, unknown>): string {
  const deployment = /^\/openai\/deployments\/([^/]+)\//.exec(pathname)?.[1];
  if (deployment !== undefined) return decodeURIComponent(deployment);
  return typeof body.model === "string" ? body.model : "";
}

/** The vendor's refusal of `max_tokens` for a reasoning model's chat call, or null. */
export function reasoningLimitRefusal(pathname: string, body: Record<string, unknown>): Response | null {
  if (body.max_tokens === undefined || body.max_tokens === null || !REASONING.test(modelOf(pathname, body))) return null;
  return Response.json(
    {
      error: {
        message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        type: "invalid_request_error",
        param: "max_tokens",
        code: "unsupported_parameter",
      },
    },
    { status: 400 },
  );
}
