/**
 * What sets Azure OpenAI's answers apart from OpenAI's, for the mock's deployment paths
 * (`/openai/deployments/{name}/...`, `/openai/models`) and its v1 paths (`/openai/v1/...`,
 * the deployment named in the body's `model`): every request must carry the resource key
 * in `api-key` (or an Entra bearer token), and on the deployment paths name its
 * `api-version` (the v1 API takes none); Azure answers with the deployed model's name,
 * which the mock, holding no deployments, reads from a deployment named `deploy-<model>`; a
 * chat answer carries the content filter's verdict on the prompt (`prompt_filter_results`),
 * and a stream opens with a chunk that holds only that verdict, with `"model":""`,
 * `"id":""` and no choices (Azure OpenAI REST reference, chat completions;
 * Azure/azure-rest-api-specs, specification/cognitiveservices/data-plane/AzureOpenAI/inference).
 */
import { openAiError } from "../simulator/openai-format.ts";

/** Azure's paths: the deployment paths, and the resource's v1 API. */
export const isAzurePath = (pathname: string): boolean => pathname.startsWith("/openai/");
const isV1Path = (pathname: string): boolean => pathname.startsWith("/openai/v1/");

/** The model a deployment named `deploy-<model>` answers as (by path, or in a v1 body); otherwise as the body names it. */
export function azureAnsweredModel(pathname: string, body: Record<string, unknown> | null): string | undefined {
  const deployment = isV1Path(pathname) ? body?.model : /^\/openai\/deployments\/([^/]+)\//.exec(pathname)?.[1];
  return typeof deployment === "string" ? /^deploy-(.+)$/.exec(decodeURIComponent(deployment))?.[1] : undefined;
}

const SAFE = { filtered: false, severity: "safe" };
const PROMPT_FILTER_RESULTS = [{ prompt_index: 0, content_filter_results: { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE } }];

/** The error Azure answers a request without its version (deployment paths) or its key with, or null when it has them. */
export function azureRefusal(pathname: string, search: string, headers: Headers): Response | null {
  if (!isV1Path(pathname) && !new URLSearchParams(search).get("api-version"))
    return Response.json(
      {
        error: {
          code: "MissingApiVersionParameter",
          message: "The api-version query parameter (?api-version=) is required for all requests.",
        },
      },
      { status: 400 },
    );
  if (!headers.get("api-key") && !headers.get("authorization"))
    return openAiError(
      401,
      "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.",
      "authentication_error",
    );
  return null;
}

/** A chat answer as Azure writes it: the prompt's filter verdict on the body, or as the stream's first chunk. */
export async function azureChatAnswer(res: Response): Promise<Response> {
  if (!res.ok || !res.body) return res;
  if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const body = (await res.json()) as Record<string, unknown>;
    return Response.json({ ...body, prompt_filter_results: PROMPT_FILTER_RESULTS }, { status: res.status, headers: res.headers });
  }
  const first = { choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: PROMPT_FILTER_RESULTS };
  const opening = new TextEncoder().encode(`data: ${JSON.stringify(first)}\n\n`);
  const reader = res.body.getReader();
  let opened = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (!opened) {
        opened = true;
        c.enqueue(opening);
        return;
      }
      const { done, value } = await reader.read();
      if (done) c.close();
      else c.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: res.status, headers: res.headers });
}
